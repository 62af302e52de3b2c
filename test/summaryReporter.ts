// mocha's spec reporter, closed by one plain line "N passed, N failed" that CI tooling reads.
import Mocha from 'mocha';

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const stats = runner.stats!;
      console.log(
        `${stats.passes} passed, ${stats.failures} failed${stats.pending ? `, ${stats.pending} skipped` : ''}`,
      );
    });
  }
}

module.exports = SummaryReporter;
