import type { FastifyInstance } from 'fastify';
import type { AuditLog } from '../audit/service.js';
import type { DeveloperService } from '../developers/service.js';
import type { SessionService } from '../sessions/service.js';
import { html } from '../web/html.js';
import { appLayout } from '../web/layout.js';
import type { SessionArea } from '../web/session-area.js';
import type { SecondFactors } from './second-factor.js';

/**
 * The console's "Developer access" page (issue 27): an operator ends every session of a
 * developer (a stolen laptop) or removes their two-factor sign-in (a lost phone with no recovery
 * code left). Both audited as the operator.
 */
export function registerDeveloperAccessRoutes(
  app: FastifyInstance,
  area: SessionArea,
  deps: {
    developers: Pick<DeveloperService, 'findByEmail'>;
    sessions: SessionService;
    factors: SecondFactors;
    audit: AuditLog;
    nav: readonly { href: string; label: string }[];
  },
): void {
  const show = (csrf: string, who: string, message?: string, error?: string) =>
    appLayout({
      area: 'console',
      title: 'Developer access',
      session: { who, csrf, nav: deps.nav, current: '/console/developers' },
      flash: message,
      body: html`<h1>Developer access</h1>
<p class="lead">For a developer who lost a device: end every session of their portal account, or remove their two-factor sign-in so that they can sign in with their password and set it up again.</p>
${error ? html`<div class="alert" role="alert">${error}</div>` : ''}
<form method="post" action="/console/developer-access" class="stack narrow" novalidate>
<input type="hidden" name="csrf" value="${csrf}">
<label for="email">Developer email</label>
<input id="email" name="email" type="email" required maxlength="254">
<fieldset><legend>Action</legend>
<label><input type="radio" name="action" value="end-sessions" checked> End all of their sessions</label>
<label><input type="radio" name="action" value="reset-two-factor"> Remove their two-factor sign-in</label>
</fieldset>
<button type="submit" class="danger">Apply</button>
</form>
<p><a href="/console/developers">Back to developers</a></p>`,
    });

  app.get('/console/developer-access', async (request, reply) => {
    const s = area.signed(request);
    return area.page(reply, 200, show(s.session.csrfToken, s.account.email));
  });
  app.post('/console/developer-access', async (request, reply) => {
    const s = area.signed(request);
    const form = area.form(request);
    const developer = await deps.developers.findByEmail(form.email ?? '').catch(() => undefined);
    if (!developer) {
      return area.page(
        reply,
        404,
        show(s.session.csrfToken, s.account.email, undefined, 'No developer has this email.'),
      );
    }
    const target = { type: 'developer', id: developer.id };
    if (form.action === 'reset-two-factor') {
      const ref = { kind: 'developer' as const, id: developer.id, email: developer.email };
      const removed = await deps.factors.remove(ref, s.actor, 'reset');
      const message = removed
        ? `Two-factor sign-in removed for ${developer.email}.`
        : `${developer.email} had no two-factor sign-in.`;
      return area.page(reply, 200, show(s.session.csrfToken, s.account.email, message));
    }
    if (form.action !== 'end-sessions') return area.fail(reply, 'invalid', 'Choose an action.');
    const ended = await deps.sessions.endAll('developer', developer.id);
    await deps.audit.record(s.actor, 'developer.sessions_end', target, { ended });
    return area.page(
      reply,
      200,
      show(
        s.session.csrfToken,
        s.account.email,
        `${ended} session${ended === 1 ? '' : 's'} of ${developer.email} ended.`,
      ),
    );
  });
}
