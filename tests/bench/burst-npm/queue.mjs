// The node side of tests/bench/burst.sh: graphile-worker and pg-boss doing
// the burst's jobs on the benchmark's PostgreSQL server (Unix socket only).
//   node queue.mjs QUEUE install SOCKDIR DB
//       install QUEUE's schema in DB
//   node queue.mjs QUEUE setup SOCKDIR DB COUNT AT_MS
//       add COUNT jobs named b00000..., each due at AT_MS (milliseconds
//       since the epoch)
//   node queue.mjs QUEUE work SOCKDIR DB CONCURRENCY JOB
//       one worker process running CONCURRENCY jobs at once until SIGTERM;
//       a job runs `JOB NAME` (tests/tools/burst-job) and waits for it;
//       prints "ready" once it is connected and looking for jobs
//   node queue.mjs QUEUE left SOCKDIR DB
//       prints how many jobs are not done yet
// QUEUE is graphile (graphile-worker) or pgboss (pg-boss).  Each is set up
// as its documentation recommends for throughput, its defaults otherwise:
// - graphile-worker: run() with `concurrency` and no batching options
//   (localQueue and completeJobBatchDelay are off by default).
// - pg-boss: a worker that fetches with batchSize = CONCURRENCY and runs the
//   batch's jobs at once, fetching again at once while batches come back
//   full (burstWhenBatchFull).  With batchSize 1 each of its workers would
//   wait out the polling interval after every job.
// Both look for jobs every 0.5 s when there are none (pg-boss's minimum;
// their default is 2 s); the workers run no maintenance of their own.
import { spawn } from 'node:child_process';
import pg from 'pg';
import * as graphile from 'graphile-worker';
import { PgBoss } from 'pg-boss';

const [queue, cmd, sockdir, db, ...rest] = process.argv.slice(2);
const POLL_MS = 500;
const NAME = 'burst';

function fail(msg) {
	console.error(`queue.mjs: ${msg}`);
	process.exit(1);
}

// One job: the job program, to its end.
function runJob(job, name) {
	return new Promise((resolve, reject) => {
		const child = spawn(job, [name], { stdio: 'ignore' });
		child.on('error', reject);
		child.on('exit', (code, sig) =>
			code === 0 ? resolve() : reject(new Error(`${job} ${name}: exit ${code ?? sig}`)));
	});
}

function names(count) {
	return Array.from({ length: count }, (_, i) => `b${String(i).padStart(5, '0')}`);
}

const quiet = new graphile.Logger(() => (level, message) => {
	if (level === 'error' || level === 'warning')
		console.error(`graphile-worker: ${message}`);
});

function pool(max) {
	const p = new pg.Pool({ host: sockdir, user: 'postgres', database: db, max });
	const onError = (err) => console.error(`pg: ${err.message}`);
	p.on('error', onError);
	p.on('connect', (client) => client.on('error', onError));
	return p;
}

async function leftSql(sql) {
	const p = pool(1);
	const r = await p.query(sql);
	console.log(r.rows[0].n);
	await p.end();
}

function boss(extra) {
	const b = new PgBoss({ host: sockdir, user: 'postgres', database: db, ...extra });
	b.on('error', (err) => console.error(`pg-boss: ${err.message}`));
	return b;
}

const graphileQueue = {
	async install() {
		const pgPool = pool(2);
		const utils = await graphile.makeWorkerUtils({ pgPool, logger: quiet });
		await utils.migrate();
		await utils.release();
		await pgPool.end();
	},
	async setup(count, at) {
		const pgPool = pool(4);
		const utils = await graphile.makeWorkerUtils({ pgPool, logger: quiet });
		const all = names(count);
		for (let i = 0; i < all.length; i += 1000) {
			await utils.addJobs(all.slice(i, i + 1000).map((name) =>
				({ identifier: NAME, payload: { name }, runAt: new Date(at) })));
		}
		await utils.release();
		await pgPool.end();
	},
	async work(concurrency, job) {
		const pgPool = pool(concurrency + 2);
		const runner = await graphile.run({
			pgPool, concurrency, pollInterval: POLL_MS, logger: quiet, noHandleSignals: true,
			taskList: { [NAME]: async (payload) => runJob(job, payload.name) },
		});
		console.log('ready');
		process.once('SIGTERM', async () => {
			await runner.stop();
			await pgPool.end();
			process.exit(0);
		});
		await runner.promise;
	},
	left: () => leftSql('SELECT count(*) AS n FROM graphile_worker._private_jobs'),
};

const pgbossQueue = {
	async install() {
		const b = boss({ max: 2, supervise: false, schedule: false });
		await b.start();
		await b.createQueue(NAME);
		await b.stop({ graceful: false });
	},
	async setup(count, at) {
		const b = boss({ max: 4, supervise: false, schedule: false, migrate: false });
		await b.start();
		const all = names(count);
		for (let i = 0; i < all.length; i += 1000) {
			await b.insert(NAME, all.slice(i, i + 1000).map((name) =>
				({ data: { name }, startAfter: new Date(at) })));
		}
		await b.stop({ graceful: false });
	},
	async work(concurrency, job) {
		const b = boss({ max: 4, supervise: false, schedule: false, migrate: false });
		await b.start();
		await b.work(NAME, {
			batchSize: concurrency, burstWhenBatchFull: true, pollingIntervalSeconds: POLL_MS / 1000,
		}, async (jobs) => {
			await Promise.all(jobs.map((j) => runJob(job, j.data.name)));
		});
		console.log('ready');
		process.once('SIGTERM', async () => {
			await b.stop({ graceful: true, timeout: 5000 });
			process.exit(0);
		});
	},
	left: () => leftSql(`SELECT count(*) AS n FROM pgboss.job WHERE name = '${NAME}' AND state <> 'completed'`),
};

const q = { graphile: graphileQueue, pgboss: pgbossQueue }[queue];
if (!q || !sockdir || !db)
	fail('usage: node queue.mjs graphile|pgboss setup|work|left SOCKDIR DB ...');
try {
	if (cmd === 'install')
		await q.install();
	else if (cmd === 'setup')
		await q.setup(Number(rest[0]), Number(rest[1]));
	else if (cmd === 'work')
		await q.work(Number(rest[0]), rest[1]);
	else if (cmd === 'left')
		await q.left();
	else
		fail(`unknown command '${cmd}'`);
} catch (err) {
	fail(`${queue} ${cmd}: ${err.message}`);
}
