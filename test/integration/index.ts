// Entry point VS Code calls inside the extension host: runs every *.test.js beside this file.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    color: false,
    reporter: path.join(__dirname, '..', 'summaryReporter.js'),
  });
  const only = process.env.LLM_SPACES_TEST_GREP;
  if (only) mocha.grep(only);
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed.`)) : resolve()));
  });
}
