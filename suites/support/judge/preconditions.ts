// Preconditions. A check whose inputs are not configured, or that concerns another release than the server under
// test, is skipped with its reason. A check whose precondition did not hold on the server (the status it judges
// could not be created, the stream it listens on did not open) is blocked: it cannot be judged, and it names the
// root cause, the clause of the failed precondition or "outside the contract: ...", with the exchange that showed it.
import type { TestContext } from 'vitest';
import { TestRunner } from 'vitest';
import { causeLabel, RELEASE_SKIP_MARK } from './clauses.ts';
import { causeOf, answerOf, succeeded, type StepOutcome, type RootCause, type Step } from '../act/steps.ts';
import { madeStep, type PreparedStatus, type Relied, type Status } from '../act/created.ts';
import { releaseAtLeast, type Config } from '../talk/config.ts';
import type { Exchange } from '../talk/http.ts';
import { redact } from '../talk/redact.ts';

export function needs(context: TestContext, present: unknown, reason: string): void {
  if (!present) context.skip(reason);
}

/** Skips a check for a clause that came with a later release than CONFORMANCE_SERVER_VERSION. */
export function since(context: TestContext, config: Config, release: string): void {
  if (!releaseAtLeast(config.serverVersion, release)) {
    context.skip(`needs release ${release} or later (${RELEASE_SKIP_MARK}${config.serverVersion})`);
  }
}

/** Skips a check for behaviour that a later release removed. */
export function before(context: TestContext, config: Config, release: string): void {
  if (releaseAtLeast(config.serverVersion, release)) {
    context.skip(`removed in release ${release} (${RELEASE_SKIP_MARK}${config.serverVersion})`);
  }
}

declare module 'vitest' {
  interface TaskMeta {
    blocked?: RootCause;
    /** How many instances the check judged: each verification that held (verify.ts), or what a run-wide check counted. */
    judged?: number;
    /** Why a check that met nothing to judge, while nothing failed, is not judged. */
    notJudged?: string;
    /** The error text its title names, which the server did not send: only the status code was judged (statusCodeOnly). */
    statusCodeOnly?: StatusCodeOnly;
  }
}

/** An error text a check's title names and the server did not send: ERRORS-TEXT-1 judges the text, the check its code. */
export interface StatusCodeOnly {
  /** The text the contract's Errors row gives, as the title names it. */
  named: string;
  /** What the server sent instead: its {"error"} text, or why there was none. */
  sent: string;
}

/**
 * Notes on the running check that the error text its title names was not what the server sent, so that a pass says it
 * judged the status code only; a check whose title names no such text has nothing to correct.
 */
export function judgedStatusCodeOnly(named: string, sent: string): void {
  const test = TestRunner.getCurrentTest();
  if (test?.name.includes(`"${named}"`)) test.meta.statusCodeOnly ??= { named, sent };
}

/** Ends the running check as blocked by `cause`: not a failure of its own clause. */
export function block(cause: RootCause): never {
  const test = TestRunner.getCurrentTest();
  if (!test) throw new Error('block() was called outside a check');
  test.meta.blocked = cause;
  return test.context.skip(`blocked by ${causeLabel(cause)}`) as never;
}

/**
 * Counts instances the running check judged. A check that ends without judging one is not passed (reporter.ts):
 * a green tile for something never seen would tell a server team to stop looking there. A preparation step (no
 * check running) counts nothing.
 */
export function countJudged(instances = 1): void {
  const test = TestRunner.getCurrentTest();
  if (test) test.meta.judged = (test.meta.judged ?? 0) + instances;
}

/** Ends the running check as not judged: nothing failed, yet the run met nothing it judges; `reason` says what went unseen. */
export function notJudged(reason: string): never {
  const test = TestRunner.getCurrentTest();
  if (!test) throw new Error('notJudged() was called outside a check');
  test.meta.notJudged = redact(reason);
  return test.context.skip(`not judged: ${reason}`) as never;
}

/**
 * The positive control of a refusal or absence check: a 404 for what the caller may not see counts only where the
 * same operation answered 2xx for what it may. Otherwise the operation may not exist at all, and the row's first
 * clause (`clause`, whose check judges that 2xx) blocks the check.
 */
export function controlled(control: Step<Exchange> | undefined, clause: string, operation: string): void {
  if (!control) block({ summary: `${operation} (the positive control) was not made` });
  if (!control.ok) block(control.cause);
  const { status } = control.value;
  if (status === undefined || status < 200 || status > 299) block(causeOf(clause, `${operation} (the positive control) answered ${answerOf(control.value)}`, control.value));
}

/**
 * Whether the positive control of a refusal for a missing token needs A's user token to read: where the same reads
 * with the group's application token (`withToken`, none where it was not had) were not all answered 200, unless the
 * application token could not be had for want of an answer (a cause that names no clause): a server that does not
 * answer is not asked once more. The step that makes those reads sends them only then.
 */
export function userTokenControlNeeded(withToken: readonly Exchange[], token: StepOutcome<string>): boolean {
  if (withToken.length > 0 && withToken.every((exchange) => exchange.status === 200)) return false;
  return token.ok || token.cause.clause !== undefined;
}

/**
 * The positive control of a refusal for a missing token: the same reads made with a token were answered 200, the
 * application token's (`withToken`), else A's user token's (`byUser`, read only where userTokenControlNeeded). Where no
 * token is answered, the check is blocked: by `clause` where the application token's read was refused, else by A's answer.
 */
export function answeredWithToken(withToken: readonly Exchange[], token: StepOutcome<string>, clause: string, byUser: readonly Exchange[] | undefined): void {
  if (withToken.length > 0 && withToken.every((exchange) => exchange.status === 200)) return;
  if (!token.ok && token.cause.clause === undefined) block(token.cause);
  for (const exchange of byUser ?? []) {
    if (exchange.status === 200) continue;
    const refused = withToken.find((read) => read.status !== 200);
    if (refused) controlled(succeeded(refused, refused), clause, `${refused.method} ${refused.path.split('?')[0]} with an application token`);
    block(causeOf(undefined, `${exchange.method} ${exchange.path.split('?')[0]} answered ${answerOf(exchange)} to A's user token (the positive control): no read to refuse`, exchange));
  }
}

/** The value of a step the running check needs; a failed step blocks the check with its cause. */
export function need<T>(step: StepOutcome<T>): T {
  if (!step.ok) block(step.cause);
  return step.value;
}

/** A precondition the running check needs on the server's behaviour: when it does not hold, the check is blocked. */
export function requireThat(condition: boolean, cause: () => RootCause): void {
  if (!condition) block(cause());
}

/** The status a prepared creation made, for a check that needs of its visibility, reply and poll only `relied`: any of those it came without blocks. */
export function madeWith(created: PreparedStatus, relied: readonly Relied[]): Status {
  const status = need(madeStep(created));
  const unkept = created.unkept.find((u) => relied.some((r) => r === u.param));
  if (unkept) block(unkept.cause);
  return status;
}

/**
 * What a judge reads of the states the moves on a status left that must hold (act/moves.ts Holds confirms them with
 * one read): which of them that read showed turned back, by the move's clause.
 */
export interface HeldStates {
  turnedBack(clause: string): { cause: RootCause; exchange: Exchange } | undefined;
}

/** A check that met the state the move of `clause` left: blocked where a read showed that state turned back. */
export function needHeld(holds: HeldStates, clause: string): void {
  const turned = holds.turnedBack(clause);
  if (turned) block(turned.cause);
}
