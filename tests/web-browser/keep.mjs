// keep.mjs LOGIN-URL ADD-CMD: the tasks page as a person uses it while it
// refreshes itself (every 10 s): boxes ticked for a bulk pause stay
// ticked, a keyboard user's focus stays where it was, and a page whose
// session ended says it no longer refreshes.  ADD-CMD (a
// shell-free path) adds a task, so a refresh shows a change.  Prints one
// line per step; any console or page error fails the run.
import {session} from './session.mjs';
import process from 'node:process';
import {execFileSync} from 'node:child_process';

const [login, add] = process.argv.slice(2);
const base = new URL(login).origin;
let ended = false;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const names = (page) => page.$$eval('#live td a', (as) => as.map((a) => a.textContent).join(','));
await session(async (browser, problems) => {
	const page = await browser.newPage();
	page.setDefaultTimeout(30000);
	// Once the session is ended on purpose, the refresh's 401 is expected.
	page.on('console', (m) => {
		if (m.type() === 'error' && !(ended && / 401 /.test(m.text())))
			problems.push(`console: ${m.text()}`);
	});
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	await page.goto(login);
	await page.goto(`${base}/tasks?sort=name`);
	console.log(`tasks: ${await names(page)}`);

	for (const n of ['alpha', 'beta']) {
		const row = await page.$(`xpath/.//tr[td/a[text()="${n}"]]//input[@type="checkbox"]`);
		await row.click();
	}
	await page.type('#bulk input[name=reason]', 'night');
	execFileSync(add, ['gamma']);
	await page.waitForFunction(() => document.querySelectorAll('#live td a').length === 4,
		{timeout: 20000});
	const ticked = await page.$$eval('#live input:checked', (b) => b.map((x) =>
		x.closest('tr').querySelector('a').textContent).join(','));
	console.log(`refreshed: ${await names(page)}; still ticked: ${ticked}`);

	await page.focus('#bulk button');
	let steps = 0;
	while (!(await page.evaluate(() => !!document.activeElement.closest('#live'))) && steps++ < 20)
		await page.keyboard.press('Tab');
	const focused = await page.evaluate(() => document.activeElement.outerHTML.replace(/value="[^"]*"/, ''));
	execFileSync(add, ['delta']);
	await sleep(11500);
	const still = await page.evaluate(() => document.activeElement.outerHTML.replace(/value="[^"]*"/, ''));
	console.log(`keyboard focus in the list kept over a refresh: ${still === focused}`);

	await page.click('#bulk input[name=reason]');
	await page.waitForFunction(() => document.querySelectorAll('#live td a').length === 5,
		{timeout: 20000});
	await Promise.all([page.waitForNavigation(), page.click('#bulk button')]);
	{ const u = new URL(page.url()); console.log(`applied: ${u.pathname}${u.search}`); }

	// The session ends (12 hours gone, task-web restarted): the page says
	// it no longer refreshes, rather than pass stale numbers for live.
	ended = true;
	await page.deleteCookie(...(await page.cookies()));
	await page.waitForSelector('#stale', {timeout: 20000});
	console.log(`session ended: ${await page.$eval('#stale', (p) => p.textContent)}`);
});
