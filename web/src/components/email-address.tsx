import { Fragment } from 'react';

/**
 * An e-mail address that wraps only where a reader expects: after the @ and before a dot
 * (`overflow-wrap: anywhere` split "sam.dri|ver@exam|ple.com"). A single part wider than the
 * line still breaks (the CSS's `overflow-wrap: break-word`), and `title` keeps the whole address.
 */
export function EmailAddress({ address, className }: { address: string; className?: string }) {
  const parts = address.split(/(?<=@)|(?=\.)/);
  return (
    <span className={className} title={address}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
