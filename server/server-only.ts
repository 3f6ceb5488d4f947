// `import '#server-only'` marks a module as server-only. In Node (the studio server, the CLI,
// workers, Vitest) the import resolves here and does nothing; in a browser bundle package.json's
// `imports` map sends it to the `server-only` package, so Next fails the build of any client
// component that reaches a marked module.
export {};
