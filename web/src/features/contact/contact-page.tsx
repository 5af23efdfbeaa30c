import { CircleCheck, Clock } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { TextAreaField, TextField } from '@/components/text-field';
import type { User } from '@/lib/session/user';
import { useSession } from '@/lib/session/use-session';
import { CONTACT_LIMITS, validateContact, type ContactField, type ContactInput } from './contact-schema';
import { sendContactMessage } from './send-contact';
import styles from './contact-page.module.css';

/** A new form: a signed-in user's name and address are filled in for them. */
function blankForm(user: User | null): ContactInput {
  return { name: user?.displayName ?? '', email: user?.email ?? '', subject: '', message: '' };
}

type Status = 'editing' | 'sending' | 'sent';

/** /contact and /app/contact. Spec §4 "Contact": form, then sending, then Message Sent!. */
export function ContactPage() {
  const { user } = useSession();
  const [form, setForm] = useState<ContactInput>(() => blankForm(user));
  const [status, setStatus] = useState<Status>('editing');
  const [error, setError] = useState<{ message: string; field?: ContactField | undefined } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const alertId = useId();

  function update(field: ContactField, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    // The mark described the old value; the message stays until the next submit.
    setError((current) => (current?.field === field ? { message: current.message } : current));
  }

  function focusField(field: ContactField | undefined) {
    const control = field ? formRef.current?.elements.namedItem(field) : null;
    if (control instanceof HTMLElement) control.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'sending') return;
    const result = validateContact(form);
    if (!result.ok) {
      setError({ message: result.message, field: result.field });
      focusField(result.field);
      return;
    }
    setError(null);
    setStatus('sending');
    const sent = await sendContactMessage(result.value);
    if (sent.ok) {
      setStatus('sent');
      return;
    }
    setStatus('editing');
    setError({ message: sent.message, field: sent.field });
    focusField(sent.field);
  }

  function sendAnother() {
    setForm(blankForm(user));
    setError(null);
    setStatus('editing');
  }

  const sending = status === 'sending';
  const mark = (field: ContactField) =>
    error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': alertId } : {};

  return (
    <Page title="Contact Us" intro={<p>Questions, problems or ideas: we are glad to hear from you.</p>}>
      {status === 'sent' ? (
        <Card className={styles.sent} aria-labelledby="contact-sent">
          <CircleCheck aria-hidden="true" className={styles.sentIcon} />
          <h2 id="contact-sent" className={styles.title}>
            Message Sent!
          </h2>
          <p className={styles.muted}>Thank you for getting in touch. We will reply as soon as we can.</p>
          <Button onClick={sendAnother}>Send Another Message</Button>
        </Card>
      ) : (
        <Card aria-label="Contact form">
          <form ref={formRef} className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
            <TextField
              label="Name"
              name="name"
              required
              autoComplete="name"
              maxLength={CONTACT_LIMITS.name}
              value={form.name}
              onChange={(event) => update('name', event.target.value)}
              {...mark('name')}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              required
              autoComplete="email"
              inputMode="email"
              maxLength={CONTACT_LIMITS.email}
              value={form.email}
              onChange={(event) => update('email', event.target.value)}
              {...mark('email')}
            />
            <TextField
              label="Subject"
              name="subject"
              optional
              maxLength={CONTACT_LIMITS.subject}
              value={form.subject}
              onChange={(event) => update('subject', event.target.value)}
              {...mark('subject')}
            />
            <TextAreaField
              label="Message"
              name="message"
              required
              rows={6}
              maxLength={CONTACT_LIMITS.message}
              value={form.message}
              onChange={(event) => update('message', event.target.value)}
              {...mark('message')}
            />
            <FormAlert id={alertId} message={error?.message ?? null} />
            <Button type="submit" block disabled={sending} aria-busy={sending}>
              {sending ? <Spinner size="sm" decorative /> : null}
              {sending ? 'Sending...' : 'Send Message'}
            </Button>
          </form>
        </Card>
      )}

      <Card className={styles.hours} aria-labelledby="support-hours">
        <Clock aria-hidden="true" className={styles.icon} />
        <div>
          <h2 id="support-hours" className={styles.title}>
            Support hours
          </h2>
          <p>Monday-Friday, 9:00 AM to 5:00 PM BST</p>
          <p className={styles.muted}>We reply in about 24 hours.</p>
        </div>
      </Card>
    </Page>
  );
}
