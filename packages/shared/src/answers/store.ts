// The answer schemas of module `store` (what `data` carries, as JSON), declared in api/store.ts.
export {};
