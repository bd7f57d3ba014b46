import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Code, type ChildConsent, type MyConsents, type PrivacyPolicies } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { ApiError, post } from '../../api/http';
import { CONSENT_KEY, POLICIES_KEY } from './consent-paths';
import { privacyStrings } from './strings';

export * from './consent-paths';

/**
 * The consent screen's rules without a UI library (the phone app's page and the parent console's share them): what
 * it reads, where it goes afterwards, and the accepting itself.
 */

/**
 * After a refused accept: the documents and consents read again; whether a newer version than the one shown came out
 * meanwhile (the refusal was `privacy.policy_changed`: the envelope carries no key, the versions tell).
 */
async function newerVersions(qc: QueryClient, shown: PrivacyPolicies): Promise<boolean> {
  await Promise.all([qc.refetchQueries({ queryKey: POLICIES_KEY }), qc.refetchQueries({ queryKey: CONSENT_KEY })]);
  const now = qc
    .getQueriesData<PrivacyPolicies>({ queryKey: POLICIES_KEY })
    .map(([, d]) => d)
    .find(Boolean);
  return Boolean(now && (now.privacy.version !== shown.privacy.version || now.children.version !== shown.children.version));
}

/** A child's two optional switches as the screen holds them. */
export type Choices = Record<number, { photos: boolean; health: boolean }>;

/** The switches as they start: what the child's guardians decided (null, nobody yet: off). */
export const initialChoices = (children: readonly ChildConsent[]): Choices =>
  Object.fromEntries(children.map((c) => [c.student_id, { photos: c.photos === true, health: c.health === true }]));

/** The setConsent calls the switches make: only the ones that differ from what is recorded. */
export function choiceChanges(children: readonly ChildConsent[], choices: Choices) {
  return children.flatMap((c) => {
    const chosen = choices[c.student_id];
    if (!chosen) return [];
    return (['photos', 'health'] as const)
      .filter((kind) => chosen[kind] !== (c[kind] === true))
      .map((kind) => ({ student_id: c.student_id, kind, granted: chosen[kind] }));
  });
}

/** After the guardian's consents changed: what the screens hold is asked again (the refused reads now answer). */
function refreshAll(qc: QueryClient, consents: MyConsents) {
  qc.setQueryData(CONSENT_KEY, consents);
  void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== CONSENT_KEY[0] });
}

/**
 * "同意并继续": acceptPolicies with the versions the screen showed (a newer one meanwhile: the documents are read again
 * and the screen says so), then setConsent for each switch the guardian changed. Answers whether to go on.
 */
export function useAcceptConsent() {
  const s = privacyStrings.use();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const accept = async (docs: PrivacyPolicies, consents: MyConsents, choices: Choices): Promise<boolean> => {
    setBusy(true);
    try {
      let now = consents;
      if (consents.needs_consent) {
        try {
          now = await post('acceptPolicies', { privacy_version: docs.privacy.version, children_version: docs.children.version }, { silent: true });
        } catch (e) {
          // privacy.policy_changed: the documents are read again, and the screen says they changed
          if (e instanceof ApiError && e.code === Code.Error && (await newerVersions(qc, docs))) setChanged(true);
          else feedback().message.error(e instanceof Error ? e.message : String(e));
          return false;
        }
      }
      setChanged(false);
      try {
        for (const change of choiceChanges(consents.children, choices)) now = await post('setConsent', change, { silent: true });
      } catch {
        feedback().message.info(s('consent.choices_failed'));
      }
      refreshAll(qc, now);
      return true;
    } finally {
      setBusy(false);
    }
  };
  return { accept, busy, changed };
}

/** One of the guardian's decisions for a child (photos, health notes, or withdrawing the documents), at once. */
export function useSetConsent() {
  const s = privacyStrings.use();
  const qc = useQueryClient();
  // a refusal is shown by the request wrapper
  const setConsent = useAction('setConsent', { success: s('pd.saved'), onDone: (now) => refreshAll(qc, now) });
  const set = async (student_id: number, kind: 'photos' | 'health' | 'policies', granted: boolean): Promise<boolean> =>
    (await setConsent.run({ student_id, kind, granted })) !== undefined;
  const input = setConsent.input;
  return { set, busy: setConsent.busy && input ? `${input.student_id}:${input.kind}` : null };
}
