// "Check diagnostics": runs the doctor checks through the app API (`app.doctor`: the
// `letagents-desktop doctor` checks plus keychain, sign-in and agent configs) and shows
// what they found in a dialog, so a person can read it without a terminal.
import { dialog, type BrowserWindow } from 'electron';
import type { DoctorReport } from '../../shared/model/app';
import { callApi, type ShellApi } from './shellApi';

const MARK: Record<DoctorReport['checks'][number]['status'], string> = { ok: '[ok]', warn: '[--]', fail: '[!!]' };

export interface DiagnosticsSummary {
  /** null when the checks could not run at all. */
  readonly problems: number | null;
  readonly message: string;
  readonly lines: readonly string[];
}

export function summarizeDiagnostics(report: DoctorReport | null): DiagnosticsSummary {
  if (report === null) return { problems: null, message: 'The diagnostics could not run.', lines: ['Run `letagents-desktop doctor` in a terminal instead.'] };
  const problems = report.checks.filter((check) => check.status === 'fail').length;
  return {
    problems,
    message: problems === 0 ? 'No problems found.' : `${problems} problem${problems === 1 ? '' : 's'} found.`,
    lines: report.checks.map((check) => `${MARK[check.status]} ${check.title}: ${check.detail}`),
  };
}

export async function showDiagnostics(parent: BrowserWindow | null, api: ShellApi, dataDir: string): Promise<DiagnosticsSummary> {
  const summary = summarizeDiagnostics((await callApi(api, 'app.doctor')) as DoctorReport | null);
  const options = {
    type: summary.problems === 0 ? ('info' as const) : ('warning' as const),
    title: 'Diagnostics',
    message: summary.message,
    detail: [`Data folder: ${dataDir}`, ...summary.lines].join('\n'),
    buttons: ['OK'],
  };
  await (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options));
  return summary;
}
