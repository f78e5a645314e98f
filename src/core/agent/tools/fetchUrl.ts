import { z } from 'zod';
import { defineTool, errorText, messageOf, throwIfAborted } from '../tool';
import { capPageText, FETCH_LIMIT_CHARS } from '../webPage';
import { LocalAddressError, localHostReason } from '../../net/localAddress';

/** The most characters of page markdown one call returns. */
export { FETCH_LIMIT_CHARS } from '../webPage';

export const fetchUrl = defineTool({
  name: 'fetchUrl',
  description:
    'Fetch a web page (http or https) and read it as markdown: "# title", "Source: <address>", then the page text with its headings, lists and links. ' +
    'Use it for a URL the user gives or one found in a note; it does not search the web. Only HTML and text pages can be read (not PDFs or images). ' +
    `At most ${FETCH_LIMIT_CHARS} characters come back; a last line says when the page was cut.`,
  schema: () => z.object({
    url: z.string().trim().min(1).describe('The full address, starting with http:// or https://.'),
  }),
  async run({ url }, ctx) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return errorText(`"${url}" is not a web address; give a full URL starting with https://.`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return errorText(`only http and https addresses can be fetched, not ${parsed.protocol}`);
    if (!ctx.host.fetchUrl) return errorText('this app cannot fetch web pages.');
    // Checked here for every host; a host that can also resolves names and re-checks redirects.
    const local = ctx.host.allowLocalAddresses?.() === true ? null : localHostReason(parsed.hostname);
    if (local !== null) return errorText(`could not fetch ${parsed.href}: ${new LocalAddressError(parsed.href, local).message}`);
    let page;
    try {
      page = await ctx.host.fetchUrl(parsed.href, ctx.signal);
    } catch (error) {
      throwIfAborted(ctx.signal);
      return errorText(`could not fetch ${parsed.href}: ${messageOf(error)}`);
    }
    throwIfAborted(ctx.signal);
    if (page.status !== undefined && page.status >= 400) return errorText(`fetching ${page.url} failed: the server answered HTTP ${page.status}.`);
    const markdown = page.markdown.trim();
    const head = `# ${page.title ?? page.url}\nSource: ${page.url}\n\n`;
    if (markdown === '') return `${head}(The page has no text.)`;
    return head + capPageText(markdown).text;
  },
});
