import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../act/steps.ts';
import { HttpClient } from '../talk/http.ts';
import { closure, costOf, nextOrder, Plan, type Cost, type DeclaredStep } from './plan.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A step that records when it starts and ends, after `ms`, into `log`. */
function recorded(
  log: string[],
  name: string,
  options: { ms?: number; needs?: Record<string, DeclaredStep<unknown>>; changes?: DeclaredStep<unknown>[]; after?: DeclaredStep<unknown>[]; cost?: Cost; fails?: boolean } = {},
): DeclaredStep<string> {
  return {
    name,
    as: 'A',
    order: nextOrder(),
    needs: options.needs ?? {},
    uses: {},
    changes: options.changes ?? [],
    after: options.after ?? [],
    cost: options.cost ?? {},
    run: async (): Promise<StepOutcome<string>> => {
      log.push(`${name} starts`);
      await pause(options.ms ?? 0);
      log.push(`${name} ends`);
      return options.fails ? { ok: false, cause: { clause: 'STATUS-CREATE-1', summary: `${name} answered HTTP 500` } } : { ok: true, value: name };
    },
  };
}

describe('the plan of a section', () => {
  it('should run a step that several steps need once', async () => {
    const log: string[] = [];
    const status = recorded(log, 'status');
    const plan = new Plan();
    await plan.run([recorded(log, 'favourite', { needs: { status }, changes: [status] }), recorded(log, 'read', { needs: { status } })]);
    expect(log.filter((line) => line === 'status starts')).toHaveLength(1);
  });

  it('should run the steps on one object one at a time, in the order of declaration, whatever their speed', async () => {
    const log: string[] = [];
    const status = recorded(log, 'status');
    const slow = recorded(log, 'favourite', { ms: 30, needs: { status }, changes: [status] });
    const fast = recorded(log, 'boost', { needs: { status }, changes: [status] });
    const elsewhere = recorded(log, 'another status');
    await new Plan().run([fast, slow, elsewhere]);
    expect(log.indexOf('boost starts')).toBeGreaterThan(log.indexOf('favourite ends'));
    // A step on another object does not wait.
    expect(log.indexOf('another status ends')).toBeLessThan(log.indexOf('favourite ends'));
  });

  it('should start a step that changes an object after the earlier steps that read it, and a reader after the earlier steps that changed it', async () => {
    const log: string[] = [];
    const app = recorded(log, 'application');
    const approval = recorded(log, 'approval', { ms: 30, needs: { app } });
    const revocation = recorded(log, 'revocation', { needs: { app }, changes: [app] });
    const later = recorded(log, 'a read after the revocation', { needs: { app } });
    await new Plan().run([later, revocation, approval]);
    expect(log.indexOf('revocation starts')).toBeGreaterThan(log.indexOf('approval ends'));
    expect(log.indexOf('a read after the revocation starts')).toBeGreaterThan(log.indexOf('revocation ends'));
  });

  it('should start a step after the planned steps it comes after, whatever became of them, and never plan them for it', async () => {
    const log: string[] = [];
    const first = recorded(log, 'first creation', { ms: 30, fails: true });
    const probe = recorded(log, 'probe', { after: [first] });
    await new Plan().run([first, probe]);
    expect(log.indexOf('probe starts')).toBeGreaterThan(log.indexOf('first creation ends'));
    // Not planned, it is not waited for: the step starts at once.
    const alone: string[] = [];
    const unplanned = recorded(alone, 'first creation');
    await new Plan().run([recorded(alone, 'probe', { after: [unplanned] })]);
    expect(alone).toEqual(['probe starts', 'probe ends']);
    expect(closure([probe]).map((step) => step.name)).toEqual(['probe']);
  });

  it("should never follow a step that failed: its cause is the cause of every step after it", async () => {
    const log: string[] = [];
    const status = recorded(log, 'status', { fails: true });
    const favourite = recorded(log, 'favourite', { needs: { status } });
    const plan = new Plan();
    await plan.run([favourite]);
    expect(log).not.toContain('favourite starts');
    expect(await plan.outcomeOf(favourite)).toEqual({ ok: false, cause: { clause: 'STATUS-CREATE-1', summary: 'status answered HTTP 500' } });
  });

  it('should run a step after the steps it uses, with their outcomes, also of one that failed', async () => {
    const log: string[] = [];
    const upload = recorded(log, 'upload', { ms: 10, fails: true });
    const values: Record<string, unknown>[] = [];
    const attach: DeclaredStep<string> = {
      ...recorded(log, 'attach'),
      uses: { upload },
      run: async (given) => {
        values.push(given);
        return { ok: true, value: 'attached without it' };
      },
    };
    const plan = new Plan();
    await plan.run([attach]);
    expect(values).toEqual([{ upload: { ok: false, cause: { clause: 'STATUS-CREATE-1', summary: 'upload answered HTTP 500' } } }]);
    expect(await plan.outcomeOf(attach)).toEqual({ ok: true, value: 'attached without it' });
    expect(closure([attach]).map((step) => step.name)).toEqual(['upload', 'attach']);
  });

  it('should reject for the steps that need a step that threw, and for no other', async () => {
    const broken: DeclaredStep<string> = { ...recorded([], 'broken'), run: () => Promise.reject(new Error('a defect of the suite')) };
    const after = recorded([], 'after', { needs: { broken } });
    const apart = recorded([], 'apart');
    const plan = new Plan();
    await plan.run([after, apart]);
    await expect(plan.outcomeOf(after)).rejects.toThrow('the step "broken" threw: a defect of the suite');
    expect(await plan.outcomeOf(apart)).toEqual({ ok: true, value: 'apart' });
  });

  it('should say what a plan costs before it runs: every step it needs once, by path', () => {
    const log: string[] = [];
    const app = recorded(log, 'application', { cost: { api: 1, oauth: 1 } });
    const token = recorded(log, 'token', { needs: { app }, cost: { oauth: 2, api: 1 } });
    const read = recorded(log, 'read', { needs: { token }, cost: { api: 2 } });
    expect(closure([read, token]).map((step) => step.name)).toEqual(['application', 'token', 'read']);
    expect(costOf(closure([read, token]))).toEqual({ api: 4, oauth: 3, files: 0, streams: 0 });
    expect(log).toEqual([]);
  });
});

describe('the actor a step acts as', () => {
  /** A step declared as `as` (and `alsoAs`) whose body runs `body`. */
  const acting = (as: string, body: () => Promise<unknown>, alsoAs?: string[]): DeclaredStep<string> => ({
    name: `a step as ${as}`,
    as,
    ...(alsoAs ? { alsoAs } : {}),
    order: nextOrder(),
    needs: {},
    uses: {},
    changes: [],
    cost: {},
    run: async () => ({ ok: true, value: String(await body()) }),
  });
  // The guard refuses before anything is sent: the address is never reached.
  const client = (actor: string) => new HttpClient('http://127.0.0.1:9', actor, undefined, 1000);

  it("should make a step declared as A that sends through B's actor an error of the suite naming the step and both actors", async () => {
    const step = acting('A', () => client('B').send('GET', '/api/v1/statuses/1?access_token=secret'));
    const plan = new Plan();
    await plan.run([step]);
    const error = await plan.outcomeOf(step).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('the step "a step as A" threw: the step "a step as A" is declared as A and sent GET /api/v1/statuses/1 as B');
  });

  it('should fail the step where its body caught the refusal', async () => {
    const step = acting('A', () => client('B').send('GET', '/api/v1/instance').catch(() => 'caught'));
    const plan = new Plan();
    await plan.run([step]);
    await expect(plan.outcomeOf(step)).rejects.toThrow('is declared as A and sent GET /api/v1/instance as B');
  });

  it('should let a step send through an account it declares besides its own (alsoAs)', async () => {
    const step = acting('A', () => client('B').send('GET', '/api/v1/instance', { query: {} }).then((exchange) => exchange.actor), ['B']);
    const plan = new Plan();
    await plan.run([step]);
    expect(await plan.outcomeOf(step)).toMatchObject({ ok: true, value: 'B' });
  });
});
