// actions.mjs LOGIN-URL TASK-ID PAUSE-CMD RESUME-CMD: a task's page keeps
// its Pause and Resume buttons in step with the task as it refreshes
// itself: PAUSE-CMD pauses the task elsewhere (as a pass would), and the
// page then offers Resume; RESUME-CMD resumes it, and Pause comes back,
// the reason typed for it kept while it is offered.  A Delete the refresh
// brought still asks first.  The page's 10 s refresh is made 200 ms here
// (its interval, not its code).  Prints one line per step; any console or
// page error fails the run.
import {session} from './session.mjs';
import process from 'node:process';
import {execFileSync} from 'node:child_process';

const [login, id, pause, resume] = process.argv.slice(2);
const base = new URL(login).origin;
const buttons = (page) => page.$$eval('#live form button', (bs) => bs.map((b) => b.textContent).join(','));
// A click on what a refresh may replace between puppeteer's finding it and
// its pressing: found again (no mouse event was sent), a few times.
const clickLive = async (page, selector) => {
	for (let tries = 1; ; tries++) {
		try {
			return await page.click(selector);
		} catch (e) {
			if (tries === 20 || !/detached|not clickable/i.test(e.message)) throw e;
		}
	}
};
// Text typed into what a refresh may replace: the field is found and
// focused in one turn of the page (puppeteer's type finds it, then
// focuses it: a refresh between sends the keys nowhere), and once it has
// the focus no refresh replaces it.
const typeLive = async (page, selector, text) => {
	for (let tries = 1; ; tries++) {
		if (await page.$eval(selector, (i) => { i.focus(); return document.activeElement === i; }))
			return page.keyboard.type(text);
		if (tries === 20) throw new Error(`${selector} does not take the focus`);
	}
};
const offers = (page, label) => page.waitForFunction((l) => [...document.querySelectorAll('#live form button')]
	.some((b) => b.textContent === l), {timeout: 5000}, label);
await session(async (browser, problems) => {
	const page = await browser.newPage();
	page.setDefaultTimeout(30000);
	page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	await page.evaluateOnNewDocument(() => {
		const every = window.setInterval;
		window.setInterval = (f, ms, ...a) => every(f, ms === 10000 ? 200 : ms, ...a);
	});
	await page.goto(login);
	await page.goto(`${base}/tasks/${id}`);
	console.log(`buttons: ${await buttons(page)}`);

	execFileSync(pause);
	await offers(page, 'Resume');
	console.log(`paused elsewhere: ${await buttons(page)}`);

	execFileSync(resume);
	await offers(page, 'Pause');
	console.log(`resumed elsewhere: ${await buttons(page)}`);

	// A reason typed, the focus gone elsewhere, a refresh or two.
	await typeLive(page, '#live input[name=reason]', 'night');
	await page.$eval('#live input[name=reason]', (i) => i.blur());
	await page.evaluate(() => { window.before = document.getElementById('live'); });
	await page.waitForFunction(() => document.getElementById('live') !== window.before, {timeout: 5000});
	console.log(`reason kept over a refresh: ${await page.$eval('#live input[name=reason]', (i) => i.value)}`);

	// The Delete the refresh brought asks first; dismissed, nothing goes.
	let asked = '';
	page.once('dialog', async (d) => { asked = d.message(); await d.dismiss(); });
	await clickLive(page, '#live form[data-confirm] button');
	await new Promise((r) => setTimeout(r, 500));
	console.log(`delete asks: ${asked}; still on ${new URL(page.url()).pathname === `/tasks/${id}`}`);
});
