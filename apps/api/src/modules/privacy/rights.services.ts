/** The services of the guardians' rights (export, requests, erasure, retention): listed once for PrivacyModule. */
export const RightsServices = [];
