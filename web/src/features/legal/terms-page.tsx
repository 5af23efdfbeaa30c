import { Link } from 'react-router';
import { Page } from '@/components/page';
import { Prose } from '@/components/prose';
import { infoRoutes } from '@/lib/paths';
import { SUPPORT_HOURS, SUPPORT_REPLY } from './support-hours';

export function TermsPage({ inApp = false }: { inApp?: boolean }) {
  const { contact, privacy } = infoRoutes(inApp);
  return (
    <Page title="Terms of Service" intro={<p>Last updated: March 22, 2025</p>}>
      <Prose>
        <section>
          <h2>About these terms</h2>
          <p>
            These terms are an agreement between you and the operator of this Delivery Tracker (&ldquo;we&rdquo;), the
            person or company that runs this installation of the software. By creating an account or using the app you
            accept them. How we handle your data is explained in the <Link to={privacy}>Privacy Policy</Link>.
          </p>
        </section>

        <section>
          <h2>Using Delivery Tracker</h2>
          <p>
            Delivery Tracker helps delivery drivers record their daily stops and estimate their earnings. The totals it
            shows are worked out from the pay rates you enter; they are estimates for your own records. Your employer&apos;s
            or client&apos;s pay statements remain the reference, and you should check them.
          </p>
          <p>You must be 16 or older to use Delivery Tracker.</p>
        </section>

        <section>
          <h2>Your account</h2>
          <p>
            Keep your password and devices safe: anyone who can open the app on your device can see your log. You are
            responsible for the information you enter and for keeping it accurate. A guest account has no password: add an
            e-mail address or another sign-in method to it before you sign out, or you will not be able to get back in.
          </p>
        </section>

        <section>
          <h2>Your data</h2>
          <p>
            The entries you log remain yours. You can export them at any time, and you can ask us to delete your account.
            The app keeps a copy on your device so it works offline; changes made offline reach our server when your device
            is back online, and are not on the server until then.
          </p>
        </section>

        <section>
          <h2>Fair use</h2>
          <p>
            Do not use Delivery Tracker to break the law, to store other people&apos;s personal data without their
            permission, or in a way that harms the service or other users, for example by overloading it or trying to reach
            accounts that are not yours. We may suspend an account that does.
          </p>
        </section>

        <section>
          <h2>Plans and payment</h2>
          <p>
            Two plans exist, with the same features. Free shows a banner about Pro; Pro is ad-free and costs £4.99 per
            month. A server may also run without plans, and then everyone has everything. The operator sets your plan, or,
            when online payments are enabled, you pay through a checkout page run by Stripe. To cancel or ask about a
            payment, <Link to={contact}>contact us</Link>.
          </p>
        </section>

        <section>
          <h2>Availability</h2>
          <p>
            We try to keep the service running and your data safe, but we cannot promise it will always be available or
            free of errors. Keep your own exports of anything you cannot afford to lose.
          </p>
        </section>

        <section>
          <h2>Our responsibility</h2>
          <p>
            As far as the law allows, we are not responsible for losses caused by relying on the estimates the app shows, or
            by events outside our reasonable control. Nothing in these terms limits rights you have by law that cannot be
            limited, including your rights as a consumer.
          </p>
        </section>

        <section>
          <h2>Ending your account</h2>
          <p>
            You can stop using Delivery Tracker at any time and ask us to delete your account and its data. If we stop
            running this service, we will tell you in advance where we can, so that you can export your data.
          </p>
        </section>

        <section>
          <h2>Changes to these terms</h2>
          <p>If we change these terms we will update the date at the top of this page.</p>
        </section>

        <section>
          <h2>Governing law</h2>
          <p>These terms are governed by the laws of the United Kingdom.</p>
        </section>

        <section>
          <h2>Questions</h2>
          <p>
            If you have a question about these terms, please <Link to={contact}>contact us</Link>. Support hours are{' '}
            {SUPPORT_HOURS}. {SUPPORT_REPLY}
          </p>
        </section>
      </Prose>
    </Page>
  );
}
