// drive.mjs LOGIN-URL SHOTS-DIR: Debian's chromium, headless, through
// task-web as a person uses it: log in with the link, filter the tasks,
// open a run, press "Run now" and see the new run appear, pause with a
// reason.  Prints one line per step; any console error, page error or
// failed request fails the run.  Screenshots go to SHOTS-DIR.
import {session} from './session.mjs';
import process from 'node:process';

const [login, shots] = process.argv.slice(2);
const base = new URL(login).origin;
await session(async (browser, problems) => {
	const page = await browser.newPage();
	page.setDefaultTimeout(30000);
	await page.setViewport({width: 1200, height: 800});
	page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));

	await page.goto(login);
	await page.waitForSelector('h1');
	if (await page.$eval('h1', (h) => h.textContent) !== 'Overview')
		throw new Error(`after the login link: ${await page.$eval('h1', (h) => h.textContent)}`);
	await page.screenshot({path: `${shots}/overview.png`, fullPage: true});
	console.log('logged in with the link');

	await page.goto(`${base}/tasks`);
	await page.type('input[name=q]', 'alpha');
	await Promise.all([page.waitForNavigation(), page.click('#filter button')]);
	const names = await page.$$eval('#live td a', (as) => as.map((a) => a.textContent));
	if (names.join(',') !== 'alpha') throw new Error(`filtered tasks: ${names.join(',')}`);
	await page.screenshot({path: `${shots}/tasks.png`, fullPage: true});
	console.log('filtered the tasks: alpha');

	await Promise.all([page.waitForNavigation(), page.click('#live td a')]);
	const taskUrl = page.url();
	const runs = () => page.$$eval('#runs tr td:first-child a', (as) => as.length);
	const before = await runs();
	await Promise.all([page.waitForNavigation(), page.click('#runs td a')]);
	const output = await page.$eval('pre', (p) => p.textContent);
	if (!output.includes('hello from alpha')) throw new Error(`run output: ${output}`);
	await page.screenshot({path: `${shots}/run.png`, fullPage: true});
	console.log('opened a run: its output is there');

	await page.goto(taskUrl);
	const runNow = await page.$$('form[action$="/run"] button');
	if (runNow.length !== 1) throw new Error('no Run now button');
	await Promise.all([page.waitForNavigation(), runNow[0].click()]);
	// The page polls while visible; a reload is the bound if it did not yet.
	const deadline = Date.now() + 60000;
	while (await runs() <= before) {
		if (Date.now() > deadline) throw new Error('the run never appeared');
		await new Promise((r) => setTimeout(r, 1000));
		if ((Date.now() / 1000 | 0) % 5 === 0) await page.reload();
	}
	await page.screenshot({path: `${shots}/task.png`, fullPage: true});
	console.log('pressed Run now: the run appeared');

	await page.type('form[action$="/pause"] input[name=reason]', 'holiday freeze');
	await Promise.all([page.waitForNavigation(), page.click('form[action$="/pause"] button')]);
	const table = await page.$eval('#live table', (t) => t.textContent);
	if (!table.includes('holiday freeze (by login)')) throw new Error(`after pause: ${table}`);
	if (!(await page.$('form[action$="/resume"]'))) throw new Error('no Resume button after pausing');
	await page.screenshot({path: `${shots}/paused.png`, fullPage: true});
	console.log('paused with a reason: it is on record');
}, {userDataDir: `${shots}/profile`});
