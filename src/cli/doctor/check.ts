// What a doctor check is: a named function that looks at one thing and explains it.
// New checks (keychain, GitHub sign-in, agent configs) are added to the list in checks.ts.

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
