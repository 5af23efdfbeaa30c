import { Link } from 'react-router';
import { Page } from '@/components/page';
import { Prose } from '@/components/prose';
import { infoRoutes } from '@/lib/paths';
import { SUPPORT_HOURS, SUPPORT_REPLY } from './support-hours';

export function PrivacyPage({ inApp = false }: { inApp?: boolean }) {
  const contact = infoRoutes(inApp).contact;
  return (
    <Page title="Privacy Policy" intro={<p>Last updated: March 21, 2025</p>}>
      <Prose>
        <section>
          <h2>Who is responsible for your data</h2>
          <p>
            Delivery Tracker is software that an operator runs on their own server. The operator of this Delivery Tracker
            (the person or company that gave you its address) decides how it is run and is responsible for your personal
            data. In this policy, &ldquo;we&rdquo; means that operator. Your data is not sent to the makers of the software.
          </p>
        </section>

        <section>
          <h2>What we store</h2>
          <ul>
            <li>
              Your account: your e-mail address (or the identity your sign-in provider or phone number gives us), your
              display name, your bio, your plan, and the time you last signed in. Passwords are stored only as a one-way
              hash, never in readable form.
            </li>
            <li>
              Your profile picture, if you add one. It is re-encoded on upload, which removes its hidden metadata such as
              the camera model and the place where it was taken.
            </li>
            <li>The delivery entries you log: date, number of stops, extra pay, notes and the total worked out for that day.</li>
            <li>
              Statement checks you save: the period of a pay statement, the amounts and counts it shows, your status and note, and a reference you may add.
            </li>
            <li>Your payment settings (your pay tiers and rates) and your choice of theme.</li>
            <li>Messages you send through the contact form: your name, e-mail address, subject and message.</li>
          </ul>
          <p>We do not ask for, and do not want, any other information about you.</p>
        </section>

        <section>
          <h2>Why we store it</h2>
          <p>
            Only to provide the service you signed up for: to keep your delivery log, work out your earnings, show you your
            figures on each of your devices, and answer your messages. We do not sell your data, profile you, or use it for
            advertising.
          </p>
        </section>

        <section>
          <h2>On your device and on the server</h2>
          <p>
            So that the app keeps working without a signal, your data is also kept in your browser&apos;s storage on each
            device you use (IndexedDB). Changes you make offline wait on the device and are sent to our server when you are
            back online; the server copy is what your other devices receive. The copy on a device stays there so you can keep working offline, so use the app on devices you trust.
          </p>
        </section>

        <section>
          <h2>Cookies and tracking</h2>
          <p>
            We use one cookie, which keeps you signed in. It cannot be read by scripts on the page (HttpOnly) and is never
            used to follow you around the web. There are no analytics, no third-party trackers and no advertising networks.
            Free accounts see a banner about the Pro plan; it is part of the app and reports nothing to anyone.
          </p>
        </section>

        <section>
          <h2>Payments</h2>
          <p>
            Your plan is set by the operator, or, when the operator has enabled online payments, you upgrade through a
            checkout page run by Stripe. Your card details go to Stripe and are covered by Stripe&apos;s privacy policy; we
            only learn whether the payment succeeded and keep your plan.
          </p>
        </section>

        <section>
          <h2>Contact messages</h2>
          <p>
            Messages you send us are stored on our server so we can answer them, and may also be forwarded to the
            operator by e-mail. We keep them for as long as we need to deal with your request.
          </p>
        </section>

        <section>
          <h2>How long we keep it, and your rights</h2>
          <p>
            We keep your account and delivery log until you ask us to delete them. You can see and correct your profile and
            entries in the app at any time, and export your history (CSV) and everything your account holds (JSON). To
            delete your account and all of its data, <Link to={contact}>contact us</Link> and the operator will remove it.
            Copies in backups disappear as those backups are replaced.
          </p>
          <p>
            Under UK data protection law you may also ask us what we hold about you, object to how we use it, or complain to
            the Information Commissioner&apos;s Office (ico.org.uk).
          </p>
        </section>

        <section>
          <h2>Children</h2>
          <p>Delivery Tracker is not intended for children under 16, and we do not knowingly keep data about them.</p>
        </section>

        <section>
          <h2>Changes to this policy</h2>
          <p>If we change this policy we will update the date at the top of this page.</p>
        </section>

        <section>
          <h2>Questions</h2>
          <p>
            If you have a question about your data, please <Link to={contact}>contact us</Link>. Support hours are{' '}
            {SUPPORT_HOURS}. {SUPPORT_REPLY}
          </p>
        </section>
      </Prose>
    </Page>
  );
}
