import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [] }],
    },
  },
  {
    // The typed client and the local service must run outside VS Code.
    files: ['src/api/**/*.ts', 'src/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/api and src/service must not depend on vscode.' }] },
      ],
    },
  },
  {
    // The browser side of the webviews (each page/ folder) talks to the host only through src/shared/protocol/.
    files: ['src/webviews/**/page/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'A webview cannot use the vscode API; ask the host through the protocol.' },
          ],
          patterns: [
            {
              regex: '^\\.\\./(?!.*/(page|shared)/)(?!.*/api/schemas$)',
              message: 'Webview code may import only the page/ folders, src/shared and src/api/schemas.',
            },
          ],
        },
      ],
    },
  },
);
