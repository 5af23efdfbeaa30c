// The pull worker's entry (worker-pull.ts): pulls into the signed-in user's database off the
// tab's main thread. Started by the coordinator, one per signed-in user.
import { httpSyncApi } from './api';
import { localDbFor } from './db';
import { servePulls, type Port, type PullReply, type PullRequest } from './worker-pull';

servePulls(self as unknown as Port<PullRequest, PullReply>, (userId) => ({ db: localDbFor(userId), api: httpSyncApi() }));
