import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';

/**
 * Features a screen composes: one thing a driver keeps or sees in many places (a record kind,
 * the parked changes, the reminders), with its forms, lists, schemas, commands and hooks.
 */
const COMPOSABLE_FEATURES = ['entries', 'statement-checks', 'parked-changes', 'couriers', 'rate-cards', 'deductions', 'expenses', 'mileage', 'reminders', 'statement-lines', 'sent-updates', 'fuel-fills', 'statement-queries', 'evidence'];

/** Packages that would tie a module to a screen or to the device's database. */
const UI_PACKAGES = ['react', 'react-dom', 'react-router', 'dexie-react-hooks'];


export default defineConfig(
  { ignores: ['dist', 'dev-dist', 'node_modules', 'coverage'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh, import: importPlugin },
    settings: {
      // TypeScript files are modules too (the plugin reads only .js by default), resolved like tsc does (@/ alias).
      'import/extensions': ['.ts', '.tsx', '.js'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { [new URL('./eslint-resolve-alias.cjs', import.meta.url).pathname]: {} },
    },
    rules: {
      // Modules that import each other in a circle cannot be understood (or tested) one at a time.
      'import/no-cycle': 'error',
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // zod must be told not to generate code (our CSP forbids it) before any schema is made:
    // lib/zod.ts does, so the app's code takes z from there (types may come straight from zod).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/zod.ts', 'src/testing/**', '**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', allowTypeImports: true, message: "Import z from '@/lib/zod' (../lib/zod in src/sync): it turns off zod's code generation first." }] },
      ],
    },
  },
  {
    // Imports flow core -> shared -> features -> app: shared code never reaches up.
    files: ['src/components/**', 'src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/*', '@/app/*', '../*'], message: 'Shared code imports only shared code, via @/.' }] },
      ],
    },
  },
  // The device's money rules (pay, deductions, pay periods, summaries, tax, statement checks,
  // import plan, reminders): plain functions of records, so a rule can be read and tested alone.
  // No React, no Dexie, no screens: it takes records as arguments and returns figures. From
  // the sync engine it may read types, the generated contract and the kinds' registry only.
  {
    files: ['src/core/**'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...[...UI_PACKAGES, 'dexie'].map((name) => ({ name, allowTypeImports: true, message: 'src/core is React-free and Dexie-free: it takes records as arguments.' })),
            { name: 'zod', allowTypeImports: true, message: "Import z from '@/lib/zod'." },
          ],
          patterns: [
            { group: ['@/app/*', '@/features/*', '@/components/*', '@/lib/sync-react/*', '@/testing/*', '../*', '*.tsx'], message: 'src/core imports only src/core, plain @/lib helpers and the sync types and contract.' },
            {
              group: ['@/sync/*', '!@/sync/contract.generated', '!@/sync/records', '!@/sync/default-courier'],
              allowTypeImports: true,
              message: 'src/core reads the sync engine only for types, the generated contract, the kinds (records.ts) and the starter records.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: 'src/core is plain TypeScript: components live in the features.' }] },
  },
  // Two kinds of feature. A composable feature (entries, statement checks, parked changes, ...)
  // owns one thing a driver keeps or sees in many places: its forms, lists, schemas, commands
  // and hooks. A screen feature (dashboard, history, profile, ...) is a page: its own parts,
  // composed with composable features. So a screen may use a composable feature, a composable
  // feature uses only shared code and core/, and no feature reaches into a sibling of its own
  // kind or into app/.
  {
    files: ['src/features/**'],
    ignores: COMPOSABLE_FEATURES.map((name) => `src/features/${name}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/app/*', '@/features/*', ...COMPOSABLE_FEATURES.flatMap((name) => [`!@/features/${name}`, `!@/features/${name}/*`]), '../*'],
              message: 'A screen feature imports shared code (@/components, @/lib), the rules (@/core), composable features (@/features/entries, ...) and its own files (./), never app or another screen.',
            },
          ],
        },
      ],
    },
  },
  {
    files: COMPOSABLE_FEATURES.map((name) => `src/features/${name}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/app/*', '@/features/*', '../*'],
              message: 'A composable feature imports shared code (@/components, @/lib), the rules (@/core) and its own files (./), never app or another feature.',
            },
          ],
        },
      ],
    },
  },
  // The sync engine is plain TypeScript (DESIGN.md §9.8): no React, and tools outside the app
  // (e2e, bench) load it without the @/ alias, so it reaches only its own files and the two
  // plain shared modules it needs.
  {
    files: ['src/sync/**'],
    ignores: ['src/sync/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: UI_PACKAGES.map((name) => ({ name, message: 'src/sync is plain TypeScript: React stays in lib/sync-react and the features.' })),
          patterns: [
            { group: ['@/*'], message: 'src/sync is loaded without the @/ alias (e2e, bench): import relatively.' },
            { group: ['../*', '!../lib', '../lib/*', '!../lib/api', '!../lib/paths', '!../lib/zod', '!../lib/plural'], message: 'src/sync uses only its own files, ../lib/api, ../lib/paths, ../lib/plural and ../lib/zod.' },
            { group: ['react-dom/*', '*.tsx'], message: 'src/sync is plain TypeScript: React stays in lib/sync-react and the features.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/sync/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: UI_PACKAGES.map((name) => ({ name, message: 'src/sync is plain TypeScript.' })) }],
    },
  },
  {
    files: ['src/sync/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: 'src/sync is plain TypeScript: components live in the features.' }] },
  },
  {
    files: ['scripts/**', 'bench/**', 'vite.config.ts', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/testing/**', '**/*.test.{ts,tsx}'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
);
