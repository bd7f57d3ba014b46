// The answer schemas of module `contracts` (what `data` carries, as JSON), declared in api/contracts.ts.
export {};
