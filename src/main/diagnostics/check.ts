// What a doctor check is: a named function that looks at one thing and explains it.
// `letagents-desktop doctor` and the app's diagnostics run the same checks.

export interface DoctorContext {
  readonly dataDir: string;
}

export interface CheckOutcome {
  /** ok: fine; note: worth knowing, not a problem; problem: needs fixing (exit code 1). */
  readonly status: 'ok' | 'note' | 'problem';
  readonly summary: string;
  /** What to do about a problem. */
  readonly fix?: string;
}

export interface DoctorCheck {
  readonly title: string;
  run(context: DoctorContext): Promise<CheckOutcome> | CheckOutcome;
}

/** Runs checks one by one; a check that throws is reported as a problem, never crashes the run. */
export async function runChecks(checks: readonly DoctorCheck[], context: DoctorContext): Promise<{ title: string; outcome: CheckOutcome }[]> {
  const results: { title: string; outcome: CheckOutcome }[] = [];
  for (const check of checks) {
    let outcome: CheckOutcome;
    try {
      outcome = await check.run(context);
    } catch (error) {
      outcome = { status: 'problem', summary: `The check itself failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    results.push({ title: check.title, outcome });
  }
  return results;
}
