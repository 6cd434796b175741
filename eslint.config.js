// The linter of the app's own JavaScript (scorekeeper/static, served as classic scripts) and of
// its unit tests (tests/js, run by node's own test runner). npm is used for the tests only.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["scorekeeper/static/htmx-*.min.js", "scorekeeper/static/pyodide/**", "node_modules/**", "site/**"] },
  js.configs.recommended,
  {
    files: ["scorekeeper/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, htmx: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "no-implicit-globals": "error",
    },
  },
  {
    // a worker has a global scope of its own: its top-level names are its own
    files: ["scorekeeper/static/sw.js", "scorekeeper/static/*worker*.js"],
    languageOptions: { globals: { ...globals.serviceworker, ...globals.worker } },
    rules: { "no-implicit-globals": "off" },
  },
  {
    files: ["tests/js/**/*.js", "tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
