// session.mjs: what the browser scripts share.  session(steps, options):
// Debian's chromium launched headless (without its sandbox as root;
// options go to puppeteer.launch), steps(browser, problems) run, then
// the process exits 1 when a step threw ("failed: ...") or noted a
// problem in problems (a console or page error), each printed, else 0.
import puppeteer from 'puppeteer-core';
import process from 'node:process';

export async function session(steps, options = {}) {
	const args = ['--headless=new', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'];
	if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
	const browser = await puppeteer.launch({executablePath: '/usr/bin/chromium', args, timeout: 60000,
		...options});
	const problems = [];
	let failed = false;
	try {
		await steps(browser, problems);
	} catch (e) {
		console.log(`failed: ${e.message}`);
		failed = true;
	} finally {
		await browser.close();
	}
	for (const p of problems) console.log(p);
	process.exit(failed || problems.length ? 1 : 0);
}
