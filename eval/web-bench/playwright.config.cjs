// The Playwright config taskweave puts beside a Web-Bench project's own (renamed
// playwright.project.config.js): the project's settings as they are, with the browser Debian ships
// instead of a downloaded one, no retries, and the plain line reporter (CI's html report would be
// written for nobody).
const config = require('./playwright.project.config.js');

const launchOptions = {
  executablePath: process.env.WEB_BENCH_CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-crash-reporter',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

const withBrowser = (use = {}) => ({ ...use, launchOptions: { ...use.launchOptions, ...launchOptions } });

module.exports = {
  ...config,
  retries: 0,
  reporter: 'line',
  use: withBrowser(config.use),
  projects: (config.projects || [{}]).map((project) => ({ ...project, use: withBrowser(project.use) })),
};
