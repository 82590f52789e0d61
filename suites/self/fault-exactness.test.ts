// Every reference-server fault that needs no setting, and every profile of such faults without a variation, fails
// exactly its clauses (fault-exactness.ts); fault-exactness-settings.test.ts, run beside this file, takes the others.
import { faultExactness } from './fault-exactness.ts';

faultExactness('no setting');
