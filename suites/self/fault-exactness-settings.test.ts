// Every reference-server fault that needs a setting (fault-runs.ts FAULT_SETTINGS: the exploration, whitelist mode, an
// older release), measured on plain runs under those settings, and every profile with such a fault or with a variation
// (those take every file), fails exactly its clauses (fault-exactness.ts); fault-exactness.test.ts, run beside this
// file, takes the faults that need none.
import { faultExactness } from './fault-exactness.ts';

faultExactness('a setting');
