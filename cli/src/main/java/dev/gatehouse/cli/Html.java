package dev.gatehouse.cli;

import java.util.List;

/**
 * Static pages, inline CSS, no scripts: allowed and denied differ in colour and in a text mark, so they read the
 * same printed in black and white or by a screen reader.
 */
final class Html {

    private Html() {
    }

    static String esc(String s) {
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

    private static final String CSS = String.join("\n",
            "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:16px;color:#111;background:#fff}",
            "h1{font-size:20px;margin:0 0 4px}",
            "p.meta{margin:2px 0;font-size:13px;color:#333}",
            "code{font-family:'DejaVu Sans Mono',monospace;font-size:11px}",
            "table.matrix{border-collapse:collapse;margin-top:12px}",
            ".matrix th,.matrix td{border:1px solid #999;padding:4px 5px;vertical-align:top}",
            ".matrix thead th{background:#e8e8e8;font-size:12px;position:sticky;top:0;max-width:120px}",
            ".matrix th.tool{text-align:left;font-size:12px;background:#f4f4f4;white-space:nowrap}",
            ".matrix th.toolkit{text-align:left;background:#d8d8e8;font-size:12px}",
            ".matrix .note{display:block;font-weight:normal;font-size:10px;color:#444}",
            "td.cell{font-size:11px;min-width:104px;max-width:150px}",
            "td.allow{background:#d9f2d9;border-left:4px solid #1a7f1a}",
            "td.deny{background:#f9dcdc;border-left:4px solid #b00020}",
            "td.undefined{background:#fff3c4;border-left:4px solid #8a6d00}",
            ".mark{font-weight:bold;display:block}",
            "td.allow .mark{color:#0f5c0f}",
            "td.deny .mark{color:#8b0016}",
            ".codes{margin:2px 0 0;padding:0;list-style:none}",
            ".codes li{word-break:break-all}",
            ".obl{display:block;color:#0b3d6b;word-break:break-all}",
            ".listing{display:block;font-style:italic;color:#6b4a00}",
            ".legend span{display:inline-block;padding:2px 8px;margin-right:8px;font-size:12px}",
            "table.diff td,table.diff th{border:1px solid #999;padding:4px 6px;font-size:12px;text-align:left}",
            "table.diff{border-collapse:collapse;margin-top:12px}",
            "td.before{background:#f3f3f3}td.after{background:#fff7d6}");

    static String matrix(Matrix m) {
        StringBuilder b = new StringBuilder();
        String title = "Gatehouse policy matrix — revision " + m.revision();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(title)).append("</title>\n<style>\n").append(CSS).append("\n</style></head><body>\n");
        b.append("<h1>Gatehouse policy matrix</h1>\n");
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
        b.append("<p class=\"legend\"><span style=\"background:#d9f2d9\">✔ ALLOW</span>"
                + "<span style=\"background:#f9dcdc\">✘ DENY + reason codes</span>"
                + "<span>“not listed” / “listed”: tools/list disagrees with the call decision</span></p>\n");
        b.append(svgSummary(m));
        b.append("<table class=\"matrix\">\n<thead><tr><th>tool \\ caller</th>");
        for (Matrix.Profile p : m.profiles()) {
            b.append("<th scope=\"col\" title=\"").append(esc(p.note())).append("\">").append(esc(p.name()))
                    .append("<span class=\"note\">").append(esc(p.note())).append("</span></th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        String toolkit = null;
        for (Matrix.Tool t : m.tools()) {
            if (!t.toolkit().equals(toolkit)) {
                toolkit = t.toolkit();
                b.append("<tr><th class=\"toolkit\" colspan=\"").append(m.profiles().size() + 1).append("\">")
                        .append(esc(toolkit.isEmpty() ? "(no toolkit)" : "toolkit: " + toolkit)).append("</th></tr>\n");
            }
            b.append("<tr><th scope=\"row\" class=\"tool\"><code>").append(esc(t.name())).append("</code></th>");
            for (Matrix.Profile p : m.profiles()) {
                b.append(cell(m.cell(p, t)));
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table>\n</body></html>\n");
        return b.toString();
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
                        .append(esc(c.codes().get(i))).append("</code></li>");
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

    /** One changed cell of a diff. */
    record Change(String profile, String tool, String before, String after) {
    }

    static String diff(Matrix a, Matrix b, List<Change> changes) {
        StringBuilder s = new StringBuilder();
        String title = "Gatehouse policy diff — " + a.revision() + " → " + b.revision();
        s.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>\n").append(CSS).append("\n</style></head><body>\n");
        s.append("<h1>Gatehouse policy diff</h1>\n");
        s.append("<p class=\"meta\">From <code>").append(esc(a.label())).append("</code> revision <code>")
                .append(esc(a.revision())).append("</code></p>\n");
        s.append("<p class=\"meta\">To <code>").append(esc(b.label())).append("</code> revision <code>")
                .append(esc(b.revision())).append("</code></p>\n");
        s.append("<p class=\"meta\">").append(changes.size()).append(" changed cells.</p>\n");
        s.append("<table class=\"diff\"><thead><tr><th>caller profile</th><th>tool</th><th>from</th><th>to</th>"
                + "</tr></thead><tbody>\n");
        for (Change c : changes) {
            s.append("<tr><td>").append(esc(c.profile())).append("</td><td><code>").append(esc(c.tool()))
                    .append("</code></td><td class=\"before\">").append(esc(c.before()))
                    .append("</td><td class=\"after\">").append(esc(c.after())).append("</td></tr>\n");
        }
        return s.append("</tbody></table>\n</body></html>\n").toString();
    }
}
