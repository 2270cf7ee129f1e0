// The mail capability's domain types (issue 27): other capabilities import these, never the store.

/** One message: a plain-text body and the same in HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}
