import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { $language } from '../../core/i18n/i18n';
import { countries, type CountryCode } from '../../core/validation/phone';
import { useT } from '../context';
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

/**
 * A country's flag (SPEC.md section 2, country picker): the pair of regional-indicator symbols of its
 * ISO code, which systems draw as the flag emoji, so no image ships. Where a system has no flag emoji
 * (Windows) it reads as the two letters. Decorative: hidden from screen readers, the name says it.
 */
export function Flag({ code }: { code: string }) {
  return (
    <span className="cb-flag" aria-hidden="true">
      {String.fromCodePoint(...[...code].map((letter) => 0x1f1a5 + letter.charCodeAt(0)))}
    </span>
  );
}

/**
 * The country of a phone number: a button showing the flag, country code and calling code that opens a search box and a list of every country. The two
 * are a WAI-ARIA combobox and listbox: the highlight starts on the chosen country, the arrow keys,
 * Home and End move it, typing filters, Enter picks, Escape and Tab close, and the list is no tab stop.
 */
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
  const current = all.find((c) => c.code === country);

  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);
  useEffect(() => {
    list.current?.children[active]?.scrollIntoView?.({ block: 'nearest' });
  }, [active, open]);

  const show = (typed = '') => {
    setQuery(typed);
    setActive(typed ? 0 : Math.max(0, all.indexOf(current!)));
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  const choose = (code: CountryCode) => {
    onChange(code);
    close(true);
  };
  const onToggleKey = (event: KeyboardEvent) => {
    const typed = event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (open || disabled || !(typed || event.key === 'ArrowDown' || event.key === 'ArrowUp')) return;
    event.preventDefault();
    show(typed ? event.key : '');
  };
  const onSearchKey = (event: KeyboardEvent) => {
    const last = shown.length - 1;
    const moves: Record<string, number> = { ArrowDown: Math.min(active + 1, last), ArrowUp: Math.max(active - 1, 0), Home: 0, End: last };
    if (event.key in moves) setActive(moves[event.key]!);
    else if (event.key === 'Enter' && shown[active]) choose(shown[active].code);
    else if (event.key === 'Escape') close(true);
    else {
      // Tab closes the list and goes on from the country button to the next field
      if (event.key === 'Tab') close(true);
      return;
    }
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
        disabled={disabled}
        onKeyDown={onToggleKey}
        onClick={() => (open ? close(true) : show())}
      >
        <span className="cb-sr">{t('phone.country', { country: nameOf(country) })}</span>
        <Flag code={country} />
        <span dir="ltr">
          {country} +{current?.callingCode}
        </span>
        <Icon name="chevron" />
      </button>
      {open && (
        <div
          className="cb-country-popover"
          onKeyDown={onSearchKey}
          onBlur={(event) => {
            if (!event.currentTarget.parentElement!.contains(event.relatedTarget as Node | null)) close(false);
          }}
        >
          <div className="cb-country-search">
            <Icon name="search" />
            <input
              ref={search}
              className="cb-input"
              value={query}
              placeholder={t('phone.search')}
              role="combobox"
              aria-label={t('phone.search')}
              aria-expanded="true"
              aria-autocomplete="list"
              aria-controls={listId}
              aria-activedescendant={shown[active] ? `${listId}${shown[active].code}` : undefined}
              onChange={(event) => {
                setQuery(event.target.value);
                setActive(0);
              }}
            />
          </div>
          <ul ref={list} id={listId} className="cb-country-list" role="listbox" tabIndex={-1} aria-label={t('phone.countries')}>
            {shown.map((c, index) => (
              <li
                key={c.code}
                id={`${listId}${c.code}`}
                role="option"
                aria-selected={index === active}
                className={c.code === country ? 'cb-chosen' : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(c.code)}
              >
                <Flag code={c.code} />
                <span className="cb-country-name">{c.name}</span>
                <span className="cb-muted" dir="ltr">
                  +{c.callingCode}
                </span>
              </li>
            ))}
          </ul>
          {!shown.length && <p className="cb-muted cb-country-none">{t('phone.noCountry')}</p>}
        </div>
      )}
    </div>
  );
}
