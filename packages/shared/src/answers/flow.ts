// The answer schemas of module `flow` (what `data` carries, as JSON), declared in api/flow.ts.
export {};
