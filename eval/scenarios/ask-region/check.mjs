// ask-region: deploy/config.json has the service, the replicas, and the region only the user
// knew (the scenario answers eu-west-3 when the agent asks).
import { fail, pass, readJson } from '../../lib/check.mjs';

const config = readJson('deploy/config.json');
if (config.service !== 'ledger') fail(`the service is ${JSON.stringify(config.service)}, not "ledger"`);
if (config.replicas !== 2) fail(`replicas is ${JSON.stringify(config.replicas)}, not 2`);
if (config.region !== 'eu-west-3')
  fail(`the region is ${JSON.stringify(config.region)}, not the one the user gives when asked`);
pass('deploy/config.json: ledger, 2 replicas, eu-west-3');
