package dev.gatehouse.review;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The matrix and the diff as HTML, without scripts: one rendering for the static pages of {@code scripts/gatehouse}
 * ({@link #matrixPage}, {@link #diffPage}: the fragment inside a page with the stylesheet inline) and for the operator
 * console ({@link #matrix}, {@link #diff}: the fragment alone, inside the console's layout, with {@link #css()} served
 * as a stylesheet). Every text from the policy or the profiles is escaped ({@link #esc}); a fragment is one
 * {@code <div class="review">}, whose rules the stylesheet scopes.
 */
public final class Html {

    private static final String RESOURCE = "/dev/gatehouse/review/review.css";
    private static final String CSS = load();
    private static final String PAGE_CSS = "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:16px;color:#111;"
            + "background:#fff}\nh1{font-size:20px;margin:0 0 4px}\n";

    private Html() {
    }

    /** Text escaped for HTML element content and quoted attribute values. */
    public static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /**
     * Text escaped as {@link #esc} does, with a line-break opportunity ({@code <wbr>}) after each underscore, so a
     * narrow cell wraps {@code capability_missing} between its words and never inside one.
     */
    static String breakable(String s) {
        return esc(s).replace("_", "_<wbr>");
    }

    /** The stylesheet of the fragments (rules under {@code .review}). */
    public static String css() {
        return CSS;
    }

    /** A static page with the matrix, titled with its revision. */
    public static String matrixPage(Matrix m) {
        return page("Gatehouse policy matrix — revision " + m.revision(), "Gatehouse policy matrix", matrix(m));
    }

    /**
     * The matrix: which policy and revision, the counts, a legend, allowed tools per profile as bars, and the table
     * of every tool (grouped by toolkit) × every profile, each cell its decision's mark, codes and obligations.
     */
    public static String matrix(Matrix m) {
        StringBuilder b = new StringBuilder("<div class=\"review\">\n");
        b.append("<p class=\"meta\">Policy: <code>").append(esc(m.label())).append("</code> — revision <code>")
                .append(esc(m.revision())).append("</code></p>\n");
        int allowed = 0;
        int total = 0;
        for (Matrix.Profile p : m.profiles()) {
            for (Matrix.Tool t : m.tools()) {
                total++;
                allowed += m.cell(p, t).allow() ? 1 : 0;
            }
        }
        b.append("<p class=\"meta\">").append(m.profiles().size()).append(" caller profiles × ")
                .append(m.tools().size()).append(" tools of the access table = ").append(total).append(" cells: ")
                .append(allowed).append(" allowed, ").append(total - allowed)
                .append(" denied. Each cell is the policy's decision for that caller calling the tool with minimal"
                        + " arguments; reason codes and obligations as returned.</p>\n");
        b.append("<p class=\"legend\"><span class=\"key-allow\">✔ ALLOW</span>"
                + "<span class=\"key-deny\">✘ DENY + reason codes</span>"
                + "<span>“not listed” / “listed”: tools/list disagrees with the call decision</span></p>\n");
        b.append(svgSummary(m));
        b.append("<table class=\"matrix\">\n<thead><tr><th scope=\"col\">tool \\ caller</th>");
        for (Matrix.Profile p : m.profiles()) {
            b.append("<th scope=\"col\" title=\"").append(esc(p.note())).append("\">").append(breakable(p.name()))
                    .append("<span class=\"note\">").append(esc(p.note())).append("</span></th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        String toolkit = null;
        for (Matrix.Tool t : m.tools()) {
            if (!t.toolkit().equals(toolkit)) {
                toolkit = t.toolkit();
                b.append("<tr><th class=\"toolkit\" scope=\"rowgroup\" colspan=\"").append(m.profiles().size() + 1)
                        .append("\">").append(esc(toolkit.isEmpty() ? "(no toolkit)" : "toolkit: " + toolkit))
                        .append("</th></tr>\n");
            }
            b.append("<tr><th scope=\"row\" class=\"tool\"><code>").append(esc(t.name())).append("</code></th>");
            for (Matrix.Profile p : m.profiles()) {
                b.append(cell(m.cell(p, t)));
            }
            b.append("</tr>\n");
        }
        return b.append("</tbody></table>\n</div>\n").toString();
    }

    /** A static page with the cells that change from {@code a} to {@code b}. */
    public static String diffPage(Matrix a, Matrix b, List<Matrix.Change> changes) {
        return page("Gatehouse policy diff — " + a.revision() + " → " + b.revision(), "Gatehouse policy diff",
                diff(a, b, changes));
    }

    /** The diff: both revisions, the count, and each changed cell with its summary before and after. */
    public static String diff(Matrix a, Matrix b, List<Matrix.Change> changes) {
        StringBuilder s = new StringBuilder("<div class=\"review\">\n");
        s.append("<p class=\"meta\">From <code>").append(esc(a.label())).append("</code> revision <code>")
                .append(esc(a.revision())).append("</code></p>\n");
        s.append("<p class=\"meta\">To <code>").append(esc(b.label())).append("</code> revision <code>")
                .append(esc(b.revision())).append("</code></p>\n");
        s.append("<p class=\"meta\">").append(changes.size()).append(" changed cells.</p>\n");
        s.append("<table class=\"diff\"><thead><tr><th scope=\"col\">caller profile</th><th scope=\"col\">tool</th>"
                + "<th scope=\"col\">from</th><th scope=\"col\">to</th></tr></thead><tbody>\n");
        for (Matrix.Change c : changes) {
            s.append("<tr><td>").append(esc(c.profile())).append("</td><td><code>").append(esc(c.tool()))
                    .append("</code></td><td class=\"before\">").append(esc(c.before()))
                    .append("</td><td class=\"after\">").append(esc(c.after())).append("</td></tr>\n");
        }
        return s.append("</tbody></table>\n</div>\n").toString();
    }

    private static String page(String title, String heading, String fragment) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title)
                + "</title>\n<style>\n" + PAGE_CSS + CSS + "\n</style></head><body>\n<h1>" + esc(heading) + "</h1>\n"
                + fragment + "</body></html>\n";
    }

    private static String cell(Matrix.Cell c) {
        StringBuilder b = new StringBuilder();
        String kind = !c.decided() ? "undefined" : c.allow() ? "allow" : "deny";
        b.append("<td class=\"cell ").append(kind).append("\" data-profile=\"").append(esc(c.profile().name()))
                .append("\" data-tool=\"").append(esc(c.tool().name())).append("\">");
        b.append("<span class=\"mark\">").append(switch (kind) {
            case "allow" -> "✔ ALLOW";
            case "deny" -> "✘ DENY";
            default -> "? UNDEFINED";
        }).append("</span>");
        if (!c.codes().isEmpty()) {
            b.append("<ul class=\"codes\">");
            for (int i = 0; i < c.codes().size(); i++) {
                b.append("<li title=\"").append(esc(c.messages().get(i))).append("\"><code>")
                        .append(breakable(c.codes().get(i))).append("</code></li>");
            }
            b.append("</ul>");
        }
        if (c.obligations() != null) {
            for (String leaf : Obligations.leaves(c.obligations())) {
                b.append("<span class=\"obl\"><code>").append(esc(leaf)).append("</code></span>");
            }
        }
        if (c.decided() && c.allow() != c.listed()) {
            b.append("<span class=\"listing\">").append(c.listed() ? "listed" : "not listed").append("</span>");
        }
        return b.append("</td>").toString();
    }

    /** Allowed cells per profile as bars: a quick shape of who can do how much. */
    private static String svgSummary(Matrix m) {
        int rows = m.profiles().size();
        int tools = Math.max(1, m.tools().size());
        int width = 640;
        int bar = 300;
        StringBuilder b = new StringBuilder();
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"").append(width)
                .append("\" height=\"").append(rows * 18 + 6).append("\" aria-label=\"allowed tools per caller\">");
        for (int i = 0; i < rows; i++) {
            Matrix.Profile p = m.profiles().get(i);
            long allowed = m.tools().stream().filter(t -> m.cell(p, t).allow()).count();
            int y = i * 18 + 3;
            int w = (int) Math.round(bar * allowed / (double) tools);
            b.append("<text x=\"0\" y=\"").append(y + 12).append("\" font-size=\"12\">").append(esc(p.name()))
                    .append("</text>");
            b.append("<rect x=\"180\" y=\"").append(y).append("\" width=\"").append(bar)
                    .append("\" height=\"14\" fill=\"#f9dcdc\"/>");
            b.append("<rect x=\"180\" y=\"").append(y).append("\" width=\"").append(w)
                    .append("\" height=\"14\" fill=\"#1a7f1a\"/>");
            b.append("<text x=\"").append(180 + bar + 6).append("\" y=\"").append(y + 12)
                    .append("\" font-size=\"12\">").append(allowed).append("/").append(tools).append(" allowed</text>");
        }
        return b.append("</svg>\n").toString();
    }

    private static String load() {
        try (InputStream in = Html.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the review library was built without " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
