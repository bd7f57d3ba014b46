/** Input schemas of the care module (actions.tsv); each action's schema is named after it. */
export {};
