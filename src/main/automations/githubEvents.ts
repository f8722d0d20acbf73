// Automations started by a pull request linked to a task of their room: one of its checks
// fails, or someone is asked to review it. They read the same pull-request state the board's
// cards show (GitHubData, cached for its few minutes, so a card and an automation share one
// request), every few minutes and only while such an automation is active and the person is
// signed in to GitHub (signed out, nothing is asked, and the automation's card says so). What
// each automation saw of each pull request is kept, so only a change starts a run: a check
// that was failing before it was added, or before a restart, starts none.
import type { AutomationTrigger } from '../../shared/model/automations';
import type { Clock } from '../agents/clock';
import { GITHUB_DATA_TTL_MS, type GitHubData } from '../auth/githubData';
import { getBoard } from '../domain/tasks';
import { pullRequestUrlOf } from '../domain/tasks/pullRequestLink';
import type { AutomationRow } from '../store/automationQueries';
import { storageIn, type Places } from '../store/places';

export const GITHUB_CHECK_MS = GITHUB_DATA_TTL_MS;

type Seen = Record<string, { checks: string; reviews: string[] }>;

export interface GitHubTriggerTarget {
  /** Active automations with a GitHub trigger. */
  automations(): Array<{ row: AutomationRow; trigger: AutomationTrigger }>;
  fire(row: AutomationRow, causeText: string): void;
  /** Keeps what the automation saw of each pull request. */
  saveSeen(automationId: string, seenJson: string): Promise<void>;
}

export interface GitHubTriggersOptions {
  readonly places: Places;
  readonly github: Pick<GitHubData, 'pullRequestState'>;
  signedIn(): Promise<boolean>;
  readonly clock: Clock;
  readonly target: GitHubTriggerTarget;
}

export class GitHubTriggers {
  private cancel: (() => void) | null = null;
  private checking: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly options: GitHubTriggersOptions) {}

  /** The automations changed: checks run every few minutes while one has a GitHub trigger (the first one now). */
  update(): void {
    const wanted = !this.closed && this.options.target.automations().length > 0;
    if (!wanted) {
      this.cancel?.();
      this.cancel = null;
    } else if (!this.cancel) {
      this.arm(0);
    }
  }

  /** One look at every linked pull request of the rooms that have such automations (one asked for during a look follows it). */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = this.checkAll().finally(() => {
      this.checking = null;
      if (this.again && !this.closed) {
        this.again = false;
        void this.check().catch((error: unknown) => console.error('automations: the GitHub check failed:', error));
      }
    });
    return this.checking;
  }

  close(): void {
    this.closed = true;
    this.cancel?.();
    this.cancel = null;
  }

  /** Looks after `delayMs`, and every few minutes from then on (the next look is set before this one runs). */
  private arm(delayMs: number): void {
    this.cancel = this.options.clock.after(delayMs, () => {
      this.cancel = null;
      if (this.closed || this.options.target.automations().length === 0) return;
      this.arm(GITHUB_CHECK_MS);
      void this.check().catch((error: unknown) => console.error('automations: the GitHub check failed:', error));
    });
  }

  private async checkAll(): Promise<void> {
    const automations = this.options.target.automations();
    if (automations.length === 0 || !(await this.options.signedIn())) return;
    const rooms = new Map<string, typeof automations>();
    for (const a of automations) {
      const key = `${a.row.place}\n${a.row.room_id}`;
      rooms.set(key, [...(rooms.get(key) ?? []), a]);
    }
    for (const list of rooms.values()) {
      const { place, room_id: roomId } = list[0].row;
      const tasks = await (await storageIn(this.options.places, place)).read((q) => getBoard(q, roomId));
      const linked = tasks.flatMap((task) => {
        const url = pullRequestUrlOf(task);
        return url ? [{ url, task: task.id }] : [];
      });
      const states = new Map<string, { checks: string; reviews: string[] }>();
      for (const { url } of linked) {
        if (states.has(url)) continue;
        const state = await this.options.github.pullRequestState(url);
        if (state.reason === null && state.state === 'open') states.set(url, { checks: state.checks, reviews: state.review_requests });
      }
      for (const a of list) await this.compare(a.row, a.trigger, linked, states);
    }
  }

  /** Fires on what changed since the automation last looked; the first look only takes note. */
  private async compare(row: AutomationRow, trigger: AutomationTrigger, linked: Array<{ url: string; task: string }>, states: Map<string, { checks: string; reviews: string[] }>): Promise<void> {
    const seen = parseSeen(row.seen_json);
    const next: Seen = {};
    for (const { url, task } of linked) {
      const now = states.get(url);
      if (!now || next[url]) continue;
      next[url] = now;
      const before = seen[url];
      if (!before) continue;
      if (trigger.type === 'pr_check_failed' && now.checks === 'failure' && before.checks !== 'failure') {
        this.options.target.fire(row, `a check failed on ${task}'s pull request ${url}`);
      }
      const asked = now.reviews.filter((r) => !before.reviews.includes(r));
      if (trigger.type === 'pr_review_requested' && asked.length > 0) {
        this.options.target.fire(row, `a review was requested from ${asked.join(', ')} on ${task}'s pull request ${url}`);
      }
    }
    const json = JSON.stringify(next);
    if (json !== (row.seen_json ?? '{}')) await this.options.target.saveSeen(row.automation_id, json);
  }
}

function parseSeen(json: string | null): Seen {
  try {
    return json ? (JSON.parse(json) as Seen) : {};
  } catch {
    return {};
  }
}
