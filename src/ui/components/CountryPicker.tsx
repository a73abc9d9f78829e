import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { countries, flagOf, type CountryCode } from '../../core/validation/phone';
import { useT } from '../context';
import { useStore } from '@nanostores/react';
import { $language } from '../../core/i18n/i18n';
import { Icon } from './Icon';

/** Country names come from the browser (Intl.DisplayNames) in the UI language: none are shipped. */
function useCountryNames(): (code: string) => string {
  const language = useStore($language);
  return useMemo(() => {
    try {
      const names = new Intl.DisplayNames([language], { type: 'region' });
      return (code: string) => names.of(code) ?? code;
    } catch {
      return (code: string) => code;
    }
  }, [language]);
}

interface Props {
  country: CountryCode;
  onChange: (country: CountryCode) => void;
  disabled?: boolean;
}

/** A button showing flag and calling code that opens a searchable list of every country. */
export function CountryPicker({ country, onChange, disabled }: Props) {
  const t = useT();
  const nameOf = useCountryNames();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const all = useMemo(
    () => countries().map((c) => ({ ...c, name: nameOf(c.code) })).sort((a, b) => a.name.localeCompare(b.name)),
    [nameOf],
  );
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase().replace(/^\+/, '');
    if (!q) return all;
    return all.filter((c) => c.name.toLowerCase().includes(q) || c.code.toLowerCase() === q || c.callingCode.startsWith(q));
  }, [all, query]);
  const current = countries().find((c) => c.code === country);

  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.children[active]?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const close = () => {
    setOpen(false);
    setQuery('');
    toggle.current?.focus();
  };
  const choose = (code: CountryCode) => {
    onChange(code);
    close();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') setActive((i) => Math.min(i + 1, shown.length - 1));
    else if (event.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
    else if (event.key === 'Enter' && shown[active]) choose(shown[active].code);
    else if (event.key === 'Escape') close();
    else return;
    event.preventDefault();
  };

  return (
    <div className="cb-country">
      <button
        ref={toggle}
        type="button"
        className="cb-country-toggle"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={t('phone.country', { country: nameOf(country) })}
        disabled={disabled}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <span aria-hidden="true">{flagOf(country)}</span>
        <span>+{current?.callingCode}</span>
        <Icon name="chevron" />
      </button>
      {open && (
        <div className="cb-country-popover" onKeyDown={onKeyDown}>
          <div className="cb-country-search">
            <Icon name="search" />
            <input
              ref={search}
              className="cb-input"
              value={query}
              placeholder={t('phone.search')}
              aria-label={t('phone.search')}
              aria-controls={listId}
              aria-activedescendant={shown[active] ? `${listId}-${shown[active].code}` : undefined}
              onChange={(event) => setQuery(event.target.value)}
              onBlur={(event) => {
                if (!event.currentTarget.closest('.cb-country')?.contains(event.relatedTarget as Node | null)) close();
              }}
            />
          </div>
          <ul ref={list} id={listId} className="cb-country-list" role="listbox" aria-label={t('phone.countries')}>
            {shown.map((c, index) => (
              <li
                key={c.code}
                id={`${listId}-${c.code}`}
                role="option"
                aria-selected={c.code === country}
                className={index === active ? 'cb-active' : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(c.code)}
              >
                <span aria-hidden="true">{flagOf(c.code)}</span>
                <span className="cb-country-name">{c.name}</span>
                <span className="cb-muted">+{c.callingCode}</span>
              </li>
            ))}
            {!shown.length && <li className="cb-muted">{t('phone.noCountry')}</li>}
          </ul>
        </div>
      )}
    </div>
  );
}
