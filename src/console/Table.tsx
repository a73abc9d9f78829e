import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside itself (never the page, down to 320 px), with its column heads;
 * `region`: a scrolling region of its own name that the keyboard can reach (the adoption page's tables).
 */
export function Table({ head, caption, region, children }: { head: ReactNode[]; caption?: string; region?: string; children: ReactNode }) {
  return (
    <div className="table" {...(region ? { tabIndex: 0, role: 'region', 'aria-label': region } : {})}>
      <table>
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {head.map((cell, i) => (
              <th scope="col" key={i}>
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
