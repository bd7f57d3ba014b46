import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { get, post } from '../../api/http';

/**
 * The guardian's share links for the children's pick-up people (pickupShareLinks): make one (its URL is shown once,
 * and texted to the person when the school sends texts), copy it, revoke the live one. Desktop and phone pages draw it.
 */
export function useShareLinks() {
  const qc = useQueryClient();
  const links = useQuery({ queryKey: ['pickupShareLinks'], queryFn: () => get('pickupShareLinks') });
  const [made, setMade] = useState<Record<number, string>>({});
  const [texted, setTexted] = useState<Record<number, boolean>>({});
  const [copied, setCopied] = useState<number | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['pickupShareLinks'] });

  const create = async (personId: number) => {
    const res = await post('pickupShareLink', { pickup_person_id: personId });
    setMade((m) => ({ ...m, [personId]: res.url }));
    setTexted((m) => ({ ...m, [personId]: res.sent }));
    setCopied(null);
    await refresh();
  };
  /** copies the link made for the person; answers whether the clipboard took it */
  const copy = async (personId: number): Promise<boolean> => {
    const ok = await (navigator.clipboard?.writeText(made[personId]).then(() => true) ?? Promise.resolve(false)).catch(() => false);
    setCopied(ok ? personId : null);
    return ok;
  };
  const revoke = async (personId: number, linkId: number) => {
    await post('pickupRevoke', { link_id: linkId });
    setMade(({ [personId]: _, ...rest }) => rest);
    await refresh();
  };
  return { links, made, texted, copied, create, copy, revoke };
}
