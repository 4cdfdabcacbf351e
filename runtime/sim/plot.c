/* sim/plot.c - --wtc-plot: a self-contained SVG line plot (plain C, no library), used for
 * the predicted speed-up against P (sim/report.c). The plot knows nothing about the
 * prediction: series of (x, y) points, log2 or linear x, an optional ideal line y = x
 * and one marked point, so a time-against-parameter plot is the same call. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "wtcrt.h"
#include "sim.h"

/* The canvas and the plotting area inside it (pixels). */
enum { W = 860, H = 540, AX0 = 80, AX1 = 600, AY0 = 78, AY1 = 470 };

static const char *const colour[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
    "#17becf", "#7f7f7f", "#bcbd22"
};
#define NCOLOUR (int)(sizeof colour / sizeof colour[0])

typedef struct scale {
    const sim_plot *p;
    double x0, x1, y0, y1;      /* the data range shown */
} scale;

/* Text with XML's special characters escaped. */
static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else if ((unsigned char)*s >= 0x20 || *s == '\t')
            fputc(*s, f);
    }
}

static double fx(const scale *c, double x)
{
    double a = c->p->xlog ? log2(x) : x, a0 = c->p->xlog ? log2(c->x0) : c->x0;
    double a1 = c->p->xlog ? log2(c->x1) : c->x1;
    return AX0 + (AX1 - AX0) * (a - a0) / (a1 - a0);
}

static double fy(const scale *c, double y)
{
    return AY1 - (AY1 - AY0) * (y - c->y0) / (c->y1 - c->y0);
}

/* A step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks over 'range'. */
static double nice_step(double range)
{
    double p = pow(10, floor(log10(range / 5))), m[] = { 1, 2, 5, 10 };
    for (int i = 0; i < 4; i++)
        if (range / (m[i] * p) <= 8)
            return m[i] * p;
    return 10 * p;
}

/* The data range: every point, y from 0 (speed-ups and times start at nothing), with
   head room above the highest point; the ideal line is clipped, not fitted. */
static void ranges(const sim_plot *p, scale *c)
{
    double step;
    int any = 0;
    c->p = p;
    c->x0 = c->x1 = 1;
    c->y0 = 0;
    c->y1 = 1;
    for (int i = 0; i < p->ns; i++)
        for (int k = 0; k < p->s[i].n; k++) {
            double x = p->s[i].x[k], y = p->s[i].y[k];
            if (!any++) {
                c->x0 = c->x1 = x;
                c->y1 = y;
            }
            c->x0 = x < c->x0 ? x : c->x0;
            c->x1 = x > c->x1 ? x : c->x1;
            c->y1 = y > c->y1 ? y : c->y1;
        }
    if (c->x1 <= c->x0) { /* one x: a range around it */
        c->x0 = p->xlog ? c->x0 / 2 : c->x0 - 1;
        c->x1 = p->xlog ? c->x1 * 2 : c->x1 + 1;
    }
    if (p->xlog && c->x0 <= 0)
        c->x0 = 1;
    if (!(c->y1 > 0))
        c->y1 = 1;
    step = nice_step(c->y1 * 1.08);
    c->y1 = step * ceil(c->y1 * 1.08 / step);
}

/* Grid, ticks and tick labels of both axes. */
static void axes(FILE *f, const scale *c)
{
    double step = nice_step(c->y1 - c->y0);
    fprintf(f, "<g font-size=\"12\" fill=\"#333\">\n");
    for (double y = c->y0; y <= c->y1 + step / 1000; y += step) {
        double py = fy(c, y);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
                AX0, py, AX1, py);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                AX0 - 5, py, AX0, py);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", AX0 - 8,
                py + 4, fabs(y) < step / 1000 ? 0 : y);
    }
    if (c->p->xlog) {
        /* powers of 2 (processor counts), of 10 over a wide range (a varied value) */
        double base = c->x1 / c->x0 > 1024 ? 10 : 2;
        for (double x = pow(base, ceil(log(c->x0) / log(base) - 1e-9)); x <= c->x1 * (1 + 1e-9);
             x *= base) {
            double px = fx(c, x);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e3e3e3\"/>\n",
                    px, AY0, px, AY1);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n",
                    px, AY1, px, AY1 + 5);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", px,
                    AY1 + 19, x);
        }
    } else {
        double xs = nice_step(c->x1 - c->x0);
        for (double x = xs * ceil(c->x0 / xs); x <= c->x1 + xs / 1000; x += xs) {
            double px = fx(c, x);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e3e3e3\"/>\n",
                    px, AY0, px, AY1);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", px,
                    AY1 + 19, x);
        }
    }
    fprintf(f, "</g>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#333\"/>\n", AX0, AY0, AX1 - AX0, AY1 - AY0);
}

/* Title, subtitle and the axis labels. */
static void labels(FILE *f, const sim_plot *p)
{
    fprintf(f, "<text x=\"%d\" y=\"30\" font-size=\"18\" font-weight=\"bold\">", AX0);
    xml_text(f, p->title);
    fprintf(f, "</text>\n<text x=\"%d\" y=\"52\" font-size=\"12\" fill=\"#555\">", AX0);
    xml_text(f, p->subtitle);
    fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">",
            (AX0 + AX1) / 2, AY1 + 44);
    xml_text(f, p->xlabel);
    fprintf(f, "</text>\n<text x=\"22\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 22 %d)\">", (AY0 + AY1) / 2, (AY0 + AY1) / 2);
    xml_text(f, p->ylabel);
    fprintf(f, "</text>\n");
}

/* The ideal line y = x, drawn in many short pieces (a curve on a log x axis), clipped
   to the plotting area. */
static void ideal(FILE *f, const scale *c)
{
    fprintf(f, "<polyline clip-path=\"url(#area)\" fill=\"none\" stroke=\"#999\" "
               "stroke-width=\"1.5\" stroke-dasharray=\"6 4\" points=\"");
    for (int i = 0; i <= 200; i++) {
        double x = c->p->xlog ? c->x0 * pow(c->x1 / c->x0, i / 200.0)
                              : c->x0 + (c->x1 - c->x0) * i / 200.0;
        double y = x < c->y1 * 2 ? x : c->y1 * 2; /* far above the top: clipped anyway */
        fprintf(f, "%.1f,%.1f ", fx(c, x), fy(c, y));
    }
    fprintf(f, "\"/>\n");
}

static void series(FILE *f, const scale *c, int i)
{
    const sim_plot_series *s = &c->p->s[i];
    const char *col = colour[i % NCOLOUR];
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\" points=\"", col);
    for (int k = 0; k < s->n; k++)
        fprintf(f, "%.1f,%.1f ", fx(c, s->x[k]), fy(c, s->y[k]));
    fprintf(f, "\"/>\n");
    for (int k = 0; k < s->n; k++)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                fx(c, s->x[k]), fy(c, s->y[k]), col);
}

/* The best point: a ring around it and a label, kept inside the plotting area (its
   width estimated from its length: ~7 px a character of 12 px bold). */
static void best(FILE *f, const scale *c)
{
    const sim_plot *p = c->p;
    const char *label = p->best_label ? p->best_label : "";
    double px, py, w = 7.0 * (double)(strlen(label) + 6), tx;
    const char *anchor = "start";
    if (p->best_series < 0 || p->best_series >= p->ns ||
        p->best_point >= p->s[p->best_series].n || p->best_point < 0)
        return;
    px = fx(c, p->s[p->best_series].x[p->best_point]);
    py = fy(c, p->s[p->best_series].y[p->best_point]);
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#000\" "
               "stroke-width=\"2\"/>\n", px, py);
    tx = px + 12;
    if (tx + w > AX1) { /* no room on the right: end left of the point, or centre */
        tx = px - 12;
        anchor = "end";
        if (tx - w < AX0) {
            tx = px < AX0 + w / 2 + 4 ? AX0 + w / 2 + 4 : px > AX1 - w / 2 - 4 ? AX1 - w / 2 - 4 : px;
            anchor = "middle";
        }
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\" "
               "text-anchor=\"%s\">best: ", tx, py < AY0 + 24 ? py + 24 : py - 12, anchor);
    xml_text(f, label);
    fprintf(f, "</text>\n");
}

static void legend(FILE *f, const sim_plot *p)
{
    int x = AX1 + 20, y = AY0 + 8, rows = p->ns + (p->ideal ? 1 : 0);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" "
               "stroke=\"#bbb\"/>\n", x - 8, y - 6, W - x - 4, 22 * rows + 10);
    for (int i = 0; i < p->ns; i++, y += 22) {
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                   "stroke-width=\"2.2\"/><circle cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"%s\"/>\n",
                x, y + 8, x + 26, y + 8, colour[i % NCOLOUR], x + 13, y + 8,
                colour[i % NCOLOUR]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", x + 34, y + 12);
        xml_text(f, p->s[i].label);
        fprintf(f, "</text>\n");
    }
    if (p->ideal)
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\" "
                   "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%d\" "
                   "font-size=\"12\">ideal (speed-up = P)</text>\n",
                x, y + 8, x + 26, y + 8, x + 34, y + 12);
}

static void plot_body(FILE *f, const void *ctx)
{
    const sim_plot *p = ctx;
    scale c;
    ranges(p, &c);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, "
               "sans-serif\">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
               "<defs><clipPath id=\"area\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
               "height=\"%d\"/></clipPath></defs>\n",
            W, H, W, H, W, H, AX0, AY0, AX1 - AX0, AY1 - AY0);
    labels(f, p);
    axes(f, &c);
    if (p->ideal)
        ideal(f, &c);
    for (int i = 0; i < p->ns; i++)
        series(f, &c, i);
    best(f, &c);
    legend(f, p);
    if (p->ns == 0)
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">no "
                   "setting could be simulated</text>\n", (AX0 + AX1) / 2, (AY0 + AY1) / 2);
    fprintf(f, "</svg>\n");
}

int sim_plot_write(const char *path, const sim_plot *p)
{
    return wtcrt_write_atomic(path, plot_body, p);
}
