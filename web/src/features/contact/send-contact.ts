import { z } from '@/lib/zod';
import { isApiError, request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { contactMessages, type ContactField, type ContactInput } from './contact-schema';

const receivedSchema = z.object({ received: z.literal(true) });

export type SendResult = { ok: true } | { ok: false; message: string; field?: ContactField | undefined };

const fields: readonly ContactField[] = ['name', 'email', 'subject', 'message'];

/**
 * Posts the message to the operator's server. A 422 or 429 carries a text meant for the user;
 * anything else (offline, server down, a proxy's error page) gets the spec's failure text.
 */
export async function sendContactMessage(input: ContactInput): Promise<SendResult> {
  try {
    await request(apiPaths.contact, { method: 'POST', body: input, schema: receivedSchema });
    return { ok: true };
  } catch (error) {
    if (isApiError(error) && (error.status === 422 || error.status === 429) && error.message) {
      const field = error.status === 422 ? fields.find((name) => error.fields?.[name]?.length) : undefined;
      return { ok: false, message: error.message, field };
    }
    return { ok: false, message: contactMessages.sendFailed };
  }
}
