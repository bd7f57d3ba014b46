// The answer schemas of module `meals` (what `data` carries, as JSON), declared in api/meals.ts.
export {};
