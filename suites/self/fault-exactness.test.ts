// Every reference-server fault that needs no setting, and every profile of such faults, fails exactly its clauses
// (fault-exactness.ts); fault-exactness-settings.test.ts, run beside this file, takes those that need one.
import { faultExactness } from './fault-exactness.ts';

faultExactness('no setting');
