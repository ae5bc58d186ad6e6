// Mocha's spec reporter plus the closing line `N passed, N failed` alone on a line
// (a failing before-all hook counts as a failure, so a run that could not start fails).
'use strict';
const { reporters, Runner } = require('mocha');

class PassedFailedReporter extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Runner.constants.EVENT_RUN_END, () => {
      const { passes = 0, failures = 0 } = runner.stats || {};
      process.stdout.write(`\n${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = PassedFailedReporter;
