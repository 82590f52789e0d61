// The layers of the support layer (docs/architecture.md): imports go one way only, through its five folders,
// run -> report -> judge -> act -> talk. A folder may import its own modules and those of any folder below it, never one
// above; the support layer never imports the suites or our own tests of them; the reference server and the media
// files (fixtures/) stand below it all but talk/ and the clause catalogue, and only run/ starts the server; and no
// module imports itself back through others. suites/support/run/layers.test.ts runs these rules in the unit lane;
// `npm run layers` runs them alone.
/** The folders of suites/support, lowest first. */
const LAYERS = ['talk', 'act', 'judge', 'report', 'run'];

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-${layer}-to-higher`,
  comment: `${layer}/ may import only ${LAYERS.slice(0, index).concat(layer).join(', ')}: ${LAYERS.slice(index + 1).join(', ')} are above it`,
  severity: 'error',
  from: { path: `^suites/support/${layer}/` },
  to: { path: `^suites/support/(${LAYERS.slice(index + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-support-to-suites',
      comment: 'the support layer serves the suites and our own tests; it never imports them',
      severity: 'error',
      from: { path: '^suites/support/' },
      to: { path: '^suites/(?!support/)' },
    },
    {
      name: 'no-loose-support-modules',
      comment: 'every module of the support layer lives in one of its five folders: none outside them imports or is imported',
      severity: 'error',
      from: { path: '^suites/support/[^/]+$' },
      to: {},
    },
    {
      name: 'no-loose-support-modules',
      comment: 'every module of the support layer lives in one of its five folders: none outside them imports or is imported',
      severity: 'error',
      from: {},
      to: { path: '^suites/support/[^/]+$' },
    },
    {
      name: 'no-judge-sends',
      comment: 'judges only judge: judge/ reads what the steps brought and imports nothing that sends a request (its types aside)',
      severity: 'error',
      from: { path: '^suites/support/judge/', pathNot: '[.]test[.]ts$' },
      to: { path: '^suites/support/(act/(actors|applications|sign-in|moves|sequence|stream-moves)|talk/(sse|websocket|undici|browser|connections))[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-judge-to-sending-act',
      comment: 'judges only judge: of act/, judge/ imports only the modules that send nothing (the *-model.ts of what the moves, sequences and explored parts sent, the steps\' outcomes, what was created, the stream keys, the settle window, the creations\' hook), not even a type of one that sends: what a judge reads is data',
      severity: 'error',
      from: { path: '^suites/support/judge/', pathNot: '[.]test[.]ts$' },
      to: { path: '^suites/support/act/', pathNot: '^suites/support/act/([^/]+-model|steps|created|stream-keys|settle|creations)[.]ts$' },
    },
    {
      name: 'no-fixtures-to-higher',
      comment: 'fixtures/ (the reference server, the media files) may import of the suites only talk/ and the clause catalogue (the releases and faults it names); its tests may use the verifiers',
      severity: 'error',
      from: { path: '^fixtures/', pathNot: '\\.test\\.ts$' },
      to: { path: '^suites/', pathNot: '^suites/support/(talk/|judge/clauses\\.ts$)' },
    },
    {
      name: 'no-reference-server-below-run',
      comment: 'only run/ starts the reference server or reads its faults and variations: the layers below it talk to a server, whichever it is',
      severity: 'error',
      from: { path: '^suites/support/(talk|act|judge|report)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^fixtures/reference-server/' },
    },
    {
      name: 'no-circular',
      comment: 'a module that imports itself back through others has no place in a layer of its own',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
