// The answer schemas of module `home` (what `data` carries, as JSON), declared in api/home.ts.
export {};
