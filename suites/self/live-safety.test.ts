// Safety on a live instance: the reference server is started here and the command runs against its URL with its
// tokens, as against a production server. Afterwards the server's own state must show that the run left nothing
// behind (but the applications it registered, which the contract cannot delete), touched nothing it did not create,
// and that no secret reached the output or the reports; in a run that passes and in one where checks fail. The
// report's list of objects left behind must be the server's truth: only those applications there; against a server
// without the cleanup's media delete, media read and token revocation, every attachment and token it kept as well;
// against one whose deleted statuses stay readable, those statuses; against one that deletes an application with
// its token, no application; against one that answers a code's exchange past the timeout, that grant, as possibly live;
// against one whose undone boosts, favourites and bookmarks come back a second later, on statuses it keeps, those;
// against one that keeps the files its updates wrote (given by the update's answer, or only by later ones), the
// attachments whose files it still serves; against one that
// keeps the polls of deleted statuses, those polls (and where no read of polls is served, each as not known to be
// gone); against one whose only read of a revoked token takes any token, no token as still there; against one that
// hides a reply whose parent went first, those replies, as not known to be gone; against one that pins a boost, not
// that pin, once a read shows the boost gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveRun, reported, truth, type Server, type Verdict } from './live-run.ts';
import { eachCaseInParallel } from './run-cli.ts';

const PASSING = 'a passing run';
const FAILING = 'a failing run';
const LIMITED = 'a run against a server without media delete, media read and token revocation, that gives a token for any code';
const READABLE = 'a run against a server whose deleted statuses stay readable';
const APPS_GO = 'a run against a server that deletes an application with its token';
const LATE_CODE = 'a run against a server that answers the exchange of a code past the timeout';
const BOOSTS_RETURN = 'a run against a server whose undone boosts come back after 1 s, and that keeps a status another account boosted';
const FILES_KEPT = 'a run against a server that keeps the files the updates of an attachment wrote after its delete';
const FILES_SHOWN_LATER = 'a run against a server that keeps the files the updates wrote, and gives them only in answers after the update';
const ANY_TOKEN = 'a run against a server whose following answers any token';
const POLLS_KEPT = 'a run against a server that keeps the polls of deleted statuses';
const NO_POLL_READ = 'a run against a server without a read of polls';
const PIN_OF_BOOST = 'a run against a server that pins a boost';
const REPLIES_HIDDEN = 'a run against a server that hides, and keeps, a reply whose parent was deleted first';

describe('safety on a live instance', () => {
  const verdicts = new Map<string, Verdict>();
  // RESOURCE-STATUS-1 makes every created Status mismatch its schema: checks fail right after creating objects.
  const RUNS: Record<string, Server> = {
    [PASSING]: {},
    [FAILING]: { faults: ['RESOURCE-STATUS-1', 'STATUS-FAV-2'] },
    // The groups that upload, register applications and obtain tokens: a whole run's cleanup confirmations against
    // this server take the IP access bucket past its reserve, and pacing then waits minutes for the reset.
    // OAUTH-CODE-1: the cleanup's read of an application (a code never issued) is given a token it cannot revoke.
    [LIMITED]: { faults: ['OAUTH-CODE-1'], variations: ['no-media-delete', 'no-media-read', 'no-revoke'], groups: ['media', 'oauth', 'access', 'client-registration'] },
    // The groups that create and delete statuses, the media status among them; the boosts are the flags' checks'.
    [READABLE]: { faults: ['STATUS-DELETE-2'], groups: ['statuses', 'statuses-create', 'media'] },
    [APPS_GO]: { variations: ['app-deleted-with-token'], groups: ['access', 'client-registration'] },
    // The OAuth group exchanges one code of its own; the server issues the token and answers after the timeout.
    [LATE_CODE]: { variations: ['late-code-exchange'], groups: ['oauth'], timeoutMs: 5000 },
    // STATUS-DELETE-7 keeps the status B boosted and favourited (its check deletes it): B's boost, undone by the ledger
    // at the end, comes back on it a second later.
    [BOOSTS_RETURN]: { faults: ['STATUS-DELETE-7'], variations: ['undone-boost-returns-after-1s', 'undone-moves-return-after-1s'], groups: ['statuses-interactions'] },
    [FILES_KEPT]: { variations: ['update-files-kept'], groups: ['media'] },
    [FILES_SHOWN_LATER]: { variations: ['update-files-kept', 'update-files-shown-later'], groups: ['media'] },
    // As a small C server: without a password, the OAuth group revokes an application token and reads it with
    // following, which this server answers to any token; and without apps/verify_credentials, nothing else reads one.
    [ANY_TOKEN]: { variations: ['made-up-tokens-read-relations', 'no-app-verify'], groups: ['oauth'], env: { CONFORMANCE_PASSWORD_A: '' } },
    // The group that makes polls: POST /api/v1/statuses parameters' and their redrafts (Statuses makes none since its
    // direct poll's row is judged on that group's poll).
    [POLLS_KEPT]: { variations: ['polls-kept-after-status'], groups: ['statuses-create'] },
    [NO_POLL_READ]: { variations: ['no-poll-read'], groups: ['statuses-create'] },
    // B's pin of its boost is taken (and undone at once by its probe); the boost's unreblog deletes it, and B's read
    // of it after shows it gone: the pin went with it.
    [PIN_OF_BOOST]: { faults: ['STATUS-PIN-4'], groups: ['statuses-interactions'] },
    // The Statuses group deletes its thread, the streams delete the public status their replies reply to.
    [REPLIES_HIDDEN]: { variations: ['replies-hidden-after-parent-delete'], groups: ['statuses', 'streaming'] },
  };

  beforeAll(async () => {
    await eachCaseInParallel(RUNS, 3, liveRun, verdicts);
    // A guard against a hang only: 14 runs took 3.5 minutes beside the rest of `npm test` at a load of 40.
  }, 900_000);

  afterAll(() => {
    const all = [...verdicts.values()];
    console.log(`objects left behind: ${all.reduce((n, v) => n + v.leftBehind.length, 0)}, objects from before the run touched: ${all.reduce((n, v) => n + v.touched.length, 0)}, secrets leaked: ${all.reduce((n, v) => n + v.leaked.length, 0)}`);
    for (const [name, v] of verdicts) console.log(`${name}: ${v.run.results?.leftovers.length ?? '?'} objects listed as left behind, ${truth(v).length} in truth`);
  });

  it(`${PASSING} should count the requests the server received, on every path, its preflight and stream connections included`, () => {
    const { run, received } = verdicts.get(PASSING) as Verdict;
    const counts = run.results?.counts;
    expect(counts && counts.total + counts.streamConnections, `the run's count (${JSON.stringify(counts?.perPath)})`).toBe(received);
  });

  for (const name of [PASSING, FAILING]) {
    it(`${name} should end as its checks say (exit 0 when all pass, 1 when some fail)`, () => {
      const { run } = verdicts.get(name) as Verdict;
      expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(name === PASSING ? 0 : 1);
    });

    it(`${name} should leave no status, boost, favourite, bookmark, pin, mute, attachment or token behind`, () => {
      const verdict = verdicts.get(name) as Verdict;
      expect(verdict.leftBehind).toEqual([]);
      expect(verdict.tokensKept, 'tokens the run obtained that the server still accepts').toBe(0);
    });

    it(`${name} should list as left behind the applications it registered, which the contract cannot delete, and nothing else`, () => {
      const verdict = verdicts.get(name) as Verdict;
      expect(verdict.applications.length).toBeGreaterThan(0);
      expect(reported(verdict)).toEqual(truth(verdict));
    });
  }

  it(`${LIMITED} should list every attachment, token and application it left behind, each with its owner and why, and count them right`, () => {
    const verdict = verdicts.get(LIMITED) as Verdict;
    const { results, reports, stdout } = verdict.run;
    // The variation keeps what the cleanup cannot remove: the run must have left some of each.
    expect(verdict.leftBehind.some((key) => key.startsWith('attachment ')), 'attachments kept by the server').toBe(true);
    expect(verdict.tokensKept, 'tokens kept by the server').toBeGreaterThan(0);
    // Every attachment the run made: the read answers 404 to everything, so it never showed one present.
    expect(reported(verdict)).toEqual(truth(verdict));
    const count = truth(verdict).length;
    const WHY: Record<string, RegExp> = {
      application: /no operation to delete an application/,
      attachment: /^(still there|not known to be gone): DELETE \/api\/v1\/media\/\S+ answered HTTP 404, and /,
      token: /^still there: (the token operation gave it to the cleanup's read of its application, and )?POST \/oauth\/revoke answered HTTP 404, and (after it|once the settle window \(\d+ ms\) had passed since it) a call with the token \(GET \S+\) answered HTTP 200, and a made-up token there was refused$/,
      authorization: /^a live authorization of A, scope "read", application \S+, not revoked: still there: its code was exchanged at the end of the run, and POST \/oauth\/revoke answered HTTP 404, and (after it|once the settle window \(\d+ ms\) had passed since it) a call with the token \(GET \S+\) answered HTTP 200, and a made-up token there was refused$/,
    };
    for (const entry of results?.leftovers ?? []) {
      expect(entry.owner, `${entry.kind} ${entry.id}`).not.toBe('');
      expect(entry.why, `${entry.kind} ${entry.id}`).toMatch(WHY[entry.kind] ?? /^$/);
    }
    expect(results?.leftovers.some((e) => e.kind === 'token' && e.why.includes("the cleanup's read of its application")), "the cleanup read's own token").toBe(true);
    // The url of an attachment that had one was fetched, and the file was still served.
    expect(results?.leftovers.some((e) => e.kind === 'attachment' && / its url \S+ was served \(HTTP 200\)$/.test(e.why))).toBe(true);
    expect(reports['summary.md']).toContain(`## Objects left behind: ${count}`);
    expect(reports['report.html']).toContain(`Objects left behind (${count})`);
    expect(stdout).toContain(`Objects left behind: ${count}`);
  });

  it(`${READABLE} should list the statuses the server still shows after their delete answered 200, and nothing it removed`, () => {
    const verdict = verdicts.get(READABLE) as Verdict;
    expect(verdict.leftBehind.some((key) => key.startsWith('status ')), 'deleted statuses the server still shows').toBe(true);
    expect(reported(verdict)).toEqual(truth(verdict));
    for (const entry of verdict.run.results?.leftovers ?? []) {
      if (entry.kind === 'status') expect(entry.why, entry.id).toMatch(/^still there: DELETE \/api\/v1\/statuses\/\S+ (answered HTTP 200|was sent by its check), and (after it|once the settle window \(\d+ ms\) had passed since it) GET \S+ answered HTTP 200$/);
    }
  });

  it(`${APPS_GO} should list none of the applications the server deleted with their tokens`, () => {
    const verdict = verdicts.get(APPS_GO) as Verdict;
    expect(verdict.tokensKept).toBe(0);
    expect(verdict.applications.length, 'applications the server deleted').toBeLessThan(verdict.registered);
    expect(reported(verdict)).toEqual(truth(verdict));
  });

  it(`${LATE_CODE} should list as possibly live the authorization whose exchange got no answer, and count it right`, () => {
    const verdict = verdicts.get(LATE_CODE) as Verdict;
    expect(verdict.tokensKept, 'the token the server issued to the unanswered exchange').toBeGreaterThan(0);
    expect(reported(verdict)).toEqual(truth(verdict));
    // The code the run exchanged, refused at the end; and the codes it never exchanged, whose exchange at the end got no answer either.
    const whys = (verdict.run.results?.leftovers ?? []).filter((e) => e.kind === 'authorization').map((e) => e.why);
    for (const why of whys) expect(why).toMatch(/^possibly a live authorization of A, .*, not revoked: not known to be gone: /);
    expect(whys.some((why) => / with its code got no answer \(.+\), so the server may have issued a token the run never saw, and no read shows/.test(why))).toBe(true);
  });

  it(`${BOOSTS_RETURN} should list the boosts and favourites that came back after their undo, read once the settle window had passed`, () => {
    const verdict = verdicts.get(BOOSTS_RETURN) as Verdict;
    expect(verdict.leftBehind.some((key) => key.startsWith('boost ')), 'boosts the server brought back').toBe(true);
    expect(verdict.leftBehind.some((key) => key.startsWith('favourite ')), 'favourites the server brought back').toBe(true);
    expect(reported(verdict)).toEqual(truth(verdict));
    const FLAGGED = { boost: ['unreblog', 'reblogged'], favourite: ['unfavourite', 'favourited'], bookmark: ['unbookmark', 'bookmarked'] } as const;
    for (const entry of verdict.run.results?.leftovers ?? []) {
      if (!Object.hasOwn(FLAGGED, entry.kind)) continue;
      const [undo, flag] = FLAGGED[entry.kind as keyof typeof FLAGGED];
      const why = new RegExp(`^still there: POST /api/v1/statuses/\\S+/${undo} (answered HTTP 200|was sent by its check), and once the settle window \\(\\d+ ms\\) had passed since it GET \\S+ showed ${flag} true$`);
      expect(entry.why, `${entry.kind} ${entry.id}`).toMatch(why);
    }
  });

  for (const name of [FILES_KEPT, FILES_SHOWN_LATER]) {
    it(`${name} should list the attachments whose files an update wrote are still served after their delete`, () => {
      const verdict = verdicts.get(name) as Verdict;
      expect(verdict.leftBehind.some((key) => key.startsWith('attachment ')), 'attachments whose written files the server keeps').toBe(true);
      expect(reported(verdict)).toEqual(truth(verdict));
      const attachments = (verdict.run.results?.leftovers ?? []).filter((e) => e.kind === 'attachment');
      for (const entry of attachments) expect(entry.why, entry.id).toMatch(/^still there: DELETE \/api\/v1\/media\/\S+ answered HTTP 200, and (after it|once the settle window \(\d+ ms\) had passed since it) the file its update wrote, \S+, was served \(HTTP 200\)$/);
    });
  }

  it(`${ANY_TOKEN} should list no revoked token as still there by a call that takes a made-up token, and say so of those no call tells`, () => {
    const verdict = verdicts.get(ANY_TOKEN) as Verdict;
    expect(verdict.tokensKept, 'tokens the server still accepts').toBe(0);
    const tokens = (verdict.run.results?.leftovers ?? []).filter((e) => e.kind === 'token');
    for (const entry of tokens) expect(entry.why, entry.id).toMatch(/^not known to be gone: .*GET \/api\/v1\/apps\/verify_credentials got HTTP 404/);
    expect(tokens.map((e) => e.why), 'the token a check read with following after its revocation').toContainEqual(
      expect.stringMatching(/GET \/api\/v1\/accounts\/\S+\/following answered it HTTP 200, and a made-up token answered HTTP 200 there\)$/),
    );
    // What the server holds: every other entry.
    expect(reported(verdict).filter((key) => key !== 'token')).toEqual(truth(verdict));
  });

  it(`${POLLS_KEPT} should list the polls the server still shows after their statuses are gone`, () => {
    const verdict = verdicts.get(POLLS_KEPT) as Verdict;
    expect(verdict.leftBehind.some((key) => key.startsWith('poll ')), 'polls the server kept').toBe(true);
    expect(reported(verdict)).toEqual(truth(verdict));
    const polls = (verdict.run.results?.leftovers ?? []).filter((e) => e.kind === 'poll');
    for (const entry of polls) expect(entry.why, entry.id).toMatch(/^still there: its status \S+ was deleted \(DELETE \/api\/v1\/statuses\/\S+ (answered HTTP 200|was sent by its check)\), and (after it|once the settle window \(\d+ ms\) had passed since it) GET \/api\/v1\/polls\/\S+ answered HTTP 200$/);
  });

  it(`${NO_POLL_READ} should list the polls of its deleted statuses as not known to be gone, and nothing else but what the server holds`, () => {
    const verdict = verdicts.get(NO_POLL_READ) as Verdict;
    const polls = (verdict.run.results?.leftovers ?? []).filter((e) => e.kind === 'poll');
    expect(polls.length, 'polls listed').toBeGreaterThan(0);
    // A poll whose status a check deleted (a redraft) was never read before: the server's 404 after tells nothing either.
    for (const entry of polls) expect(entry.why, entry.id).toMatch(/^not known to be gone: its status \S+ was deleted .*no read showed it present before \(GET \/api\/v1\/polls\/\S+ (answered HTTP 404|was never read)\)$/);
    expect(reported(verdict).filter((key) => !key.startsWith('poll '))).toEqual(truth(verdict));
  });

  it(`${PIN_OF_BOOST} should not list the pin whose boost a read shows gone`, () => {
    const verdict = verdicts.get(PIN_OF_BOOST) as Verdict;
    expect(verdict.run.results?.leftovers.filter((e) => e.kind === 'pin')).toEqual([]);
    expect(reported(verdict)).toEqual(truth(verdict));
  });

  it(`${REPLIES_HIDDEN} should delete each reply before its parent, and list as not known to be gone a reply whose parent a check deleted first`, () => {
    const verdict = verdicts.get(REPLIES_HIDDEN) as Verdict;
    expect(reported(verdict)).toEqual(truth(verdict));
    const statuses = (verdict.run.results?.leftovers ?? []).filter((e) => e.kind === 'status');
    for (const entry of statuses) expect(entry.why, entry.id).toMatch(/^not known to be gone: DELETE \/api\/v1\/statuses\/\S+ answered HTTP 404, and the status it replies to, \S+, was deleted before it /);
  });

  for (const name of [PASSING, FAILING, LIMITED, READABLE, APPS_GO, LATE_CODE, BOOSTS_RETURN, FILES_KEPT, FILES_SHOWN_LATER, ANY_TOKEN, POLLS_KEPT, NO_POLL_READ, PIN_OF_BOOST, REPLIES_HIDDEN]) {
    it(`${name} should not touch anything the run did not create`, () => {
      expect(verdicts.get(name)?.touched).toEqual([]);
    });

    it(`${name} should not show a token, password or client secret in its output or reports`, () => {
      expect(verdicts.get(name)?.leaked).toEqual([]);
    });
  }
});
