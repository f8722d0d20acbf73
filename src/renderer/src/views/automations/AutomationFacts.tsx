// An automation's next run and last run (when, outcome, its facts, a link to the reply): the same
// words on the desktop's card and on the phone's list.
import type { Automation } from '../../../../shared/model/automations';
import { RUN_STATUS_WORDS } from '../../../../shared/automationWords';
import { roomRoute, useNavigation } from '../../app/navigation';
import { Time } from '../../components/Time';
import { runFacts } from './RunHistory';

export function AutomationFacts({ automation: a }: { automation: Automation }) {
  const { navigate } = useNavigation();
  const last = a.lastRun;
  return (
    <dl className="automation-facts">
      <div>
        <dt>Next run</dt>
        <dd>{a.nextRunAt ? <Time iso={a.nextRunAt} until /> : a.state === 'paused' ? 'none while paused' : a.trigger.type === 'schedule' ? '—' : 'when it happens'}</dd>
      </div>
      <div>
        <dt>Last run</dt>
        <dd>
          {last ? (
            <>
              <Time iso={last.startedAt} /> · {RUN_STATUS_WORDS[last.status]}
              {last.reason ? ` (${last.reason})` : ''}
              {runFacts(last)}
              {last.reply && (
                <>
                  {' · '}
                  <button type="button" className="link-button" onClick={() => navigate(roomRoute({ roomId: last.reply!.roomId, place: last.reply!.place }, 'chat', { focus: last.reply!.number }))}>
                    Open the reply
                  </button>
                </>
              )}
            </>
          ) : (
            'none yet'
          )}
        </dd>
      </div>
    </dl>
  );
}
