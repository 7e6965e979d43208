/**
 * The portfolio on a world map, offline: Natural Earth country outlines (world-atlas, 1:110m,
 * shipped in this chunk) drawn with d3-geo, assets as coloured squares, all on one canvas so 5,000
 * assets pan and zoom smoothly (one path per colour per frame). Zoom with the wheel, the +/−
 * buttons or the + / − keys; pan by dragging or with the arrow keys; hover shows an asset; click
 * selects it (keyboard and screen-reader users have the text alternative and the sheets). The
 * outlines are projected once per size into Path2D objects, so a frame is a transform and a few
 * fills. This module is its own chunk, loaded only when the map is shown.
 */
import { Button, Tooltip, makeStyles, tokens } from "@fluentui/react-components";
import { geoNaturalEarth1, geoPath, type GeoPermissibleObjects, type GeoProjection } from "d3-geo";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countries110m from "world-atlas/countries-110m.json";
import type { MapAsset } from "./risk-views-actions";
import type { GeoJson } from "../../../api/types";
import { LABEL_COLOURS } from "../../../excel/table-formats";
import { RISK_LABELS } from "./model/risk-views";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** Marker colours: the sheets' LOW / MEDIUM / HIGH fonts (strong enough on a map), grey for none. */
export const MARKER_COLOURS: Record<string, string> = {
  LOW: LABEL_COLOURS.LOW.font,
  MEDIUM: "#C27C0E",
  HIGH: LABEL_COLOURS.HIGH.font,
  NONE: "#8A8886",
};

const MIN_ZOOM = 1;
const MAX_ZOOM = 64;
const MARKER = 5;
const ZOOM_BUTTON = { minWidth: 28, width: 28, padding: 0 };

const useStyles = makeStyles({
  wrap: { position: "relative", width: "100%", touchAction: "none" },
  canvas: {
    display: "block",
    width: "100%",
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: "4px",
    background: "#EAF3FB",
    cursor: "grab",
  },
  tip: {
    position: "absolute",
    pointerEvents: "none",
    background: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: "4px",
    padding: "4px 6px",
    fontSize: "12px",
    boxShadow: tokens.shadow8,
    maxWidth: "220px",
    zIndex: 1,
  },
  controls: { position: "absolute", right: "6px", top: "6px", display: "flex", flexDirection: "column", gap: "4px" },
});

/** Zoom and pan: screen = projected × k + (x, y). */
interface View {
  k: number;
  x: number;
  y: number;
}

/** Props of {@link PortfolioMap}. */
export interface PortfolioMapProps {
  assets: readonly MapAsset[];
  hazard: string;
  /** GeoJSON drawn over the countries (a vector layer or nature polygons). */
  overlay?: GeoJson;
  /** A click on an asset. */
  onSelect?: (asset: MapAsset) => void;
  /** Accessible name of the canvas: the text alternative (counts per label). */
  description: string;
}

/** What a hit test on the canvas found. */
interface Hover {
  asset: MapAsset;
  x: number;
  y: number;
}

/** The label an asset's summary gives it for a hazard on the map ("NONE" when the summary has none). */
export function assetLabelOf(asset: MapAsset, hazard: string): string {
  const label = asset.risks[hazard]?.label?.toUpperCase();
  return label && (RISK_LABELS as readonly string[]).includes(label) ? label : "NONE";
}

const world = feature(
  countries110m as unknown as Topology,
  (countries110m as unknown as Topology).objects.countries as GeometryCollection,
);

/** The map (see the module comment). Frame times are kept on the canvas for the tests and the bench. */
export default function PortfolioMap(props: PortfolioMapProps) {
  const styles = useStyles();
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const width = useWidthOf(wrapRef);
  const height = Math.round(width * 0.62);
  const [hover, setHover] = useState<Hover | null>(null);
  const frames = useRef<number[]>([]);
  const drawn = useRef(0);
  const { shapes, projected, colours } = useProjectedMap(width, height, props);
  const { view, zoomAt, panBy, zoomIn, zoomOut, wholeWorld } = useMapView(width, height);

  const draw = useCallback(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const started = performance.now();
    drawFrame(canvas, ctx, { width, height, view, shapes, projected, colours });
    const ms = performance.now() - started;
    frames.current.push(ms);
    if (frames.current.length > 500) frames.current.shift();
    canvas.dataset.frames = String(++drawn.current); // frames drawn so far (never reset)
    canvas.dataset.lastFrameMs = ms.toFixed(2);
  }, [width, height, view, shapes, projected, colours]);

  // Drawn as the view commits, before the browser paints: an input shows in the very next frame.
  useLayoutEffect(draw, [draw]);

  const hitTest = useCallback(
    (x: number, y: number): Hover | null => {
      let best = -1;
      let bestD = (MARKER + 3) ** 2;
      for (let i = 0; i < projected.length; i++) {
        const dx = projected[i][0] * view.k + view.x - x;
        const dy = projected[i][1] * view.k + view.y - y;
        const d = dx * dx + dy * dy;
        if (d <= bestD) {
          bestD = d;
          best = i;
        }
      }
      return best < 0
        ? null
        : {
            asset: props.assets[best],
            x: projected[best][0] * view.k + view.x,
            y: projected[best][1] * view.k + view.y,
          };
    },
    [projected, view, props.assets],
  );

  // Test and bench hook on the element: where an asset is on screen, and the frame times.
  useEffect(() => {
    const canvas = canvasRef.current as (HTMLCanvasElement & { riskMap?: unknown }) | null;
    if (!canvas) return;
    canvas.riskMap = {
      screenPoint: (entityId: string) => {
        const i = props.assets.findIndex((a) => a.entity_id === entityId);
        return i < 0 ? null : { x: projected[i][0] * view.k + view.x, y: projected[i][1] * view.k + view.y };
      },
      frameTimes: () => [...frames.current],
      resetFrames: () => void (frames.current = []),
      view: () => ({ ...view }),
    };
  }, [props.assets, projected, view]);

  useWheelZoom(canvasRef, zoomAt);
  const pointer = useMapPointer({ panBy, hitTest, setHover, onSelect: props.onSelect });

  return (
    <div ref={wrapRef} className={styles.wrap}>
      <canvas
        ref={canvasRef}
        className={styles.canvas}
        style={{ height }}
        role="img"
        aria-label={props.description}
        tabIndex={0}
        data-testid={TEST_IDS.visual.mapCanvas}
        {...pointer}
        onKeyDown={(e) => {
          const step = 40;
          const keys: Record<string, () => void> = {
            ArrowLeft: () => panBy(step, 0),
            ArrowRight: () => panBy(-step, 0),
            ArrowUp: () => panBy(0, step),
            ArrowDown: () => panBy(0, -step),
            "+": zoomIn,
            "=": zoomIn,
            "-": zoomOut,
            "0": wholeWorld,
          };
          const action = keys[e.key];
          if (action) {
            e.preventDefault();
            action();
          }
        }}
      />
      <ZoomButtons className={styles.controls} zoomIn={zoomIn} zoomOut={zoomOut} wholeWorld={wholeWorld} />
      {hover ? <AssetTip className={styles.tip} hover={hover} hazard={props.hazard} width={width} /> : null}
    </div>
  );
}

/** The width of the element `ref` holds (at least 200 px), following its size. */
function useWidthOf(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(300);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(200, Math.floor(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The outlines and the assets projected for a canvas of this size, and each asset's colour. */
function useProjectedMap(width: number, height: number, props: PortfolioMapProps) {
  const projection: GeoProjection = useMemo(
    () =>
      geoNaturalEarth1().fitExtent(
        [
          [4, 4],
          [width - 4, height - 4],
        ],
        { type: "Sphere" },
      ),
    [width, height],
  );
  // Outlines projected once per size into Path2D objects; a frame only transforms and fills them.
  const shapes = useMemo(() => {
    const svg = geoPath(projection);
    const toPath = (o: unknown) => new Path2D(svg(o as GeoPermissibleObjects) ?? "");
    return {
      sphere: toPath({ type: "Sphere" }),
      land: toPath(world),
      overlay: props.overlay ? toPath(props.overlay) : null,
    };
  }, [projection, props.overlay]);
  const projected = useMemo(
    () => props.assets.map((a) => projection([a.lng, a.lat]) ?? [NaN, NaN]),
    [props.assets, projection],
  );
  const colours = useMemo(() => props.assets.map((a) => assetLabelOf(a, props.hazard)), [props.assets, props.hazard]);
  return { shapes, projected, colours };
}

/** Zoom and pan, kept with some of the world on screen, and the zoom buttons' actions. */
function useMapView(width: number, height: number) {
  const [view, setView] = useState<View>({ k: 1, x: 0, y: 0 });
  const clampView = useCallback(
    (v: View): View => {
      const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.k));
      // Keep some of the world on screen.
      const x = Math.min(width * 0.8, Math.max(width * 0.2 - width * k, v.x));
      const y = Math.min(height * 0.8, Math.max(height * 0.2 - height * k, v.y));
      return { k, x, y };
    },
    [width, height],
  );
  const zoomAt = useCallback(
    (factor: number, cx: number, cy: number) =>
      setView((v) => {
        const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.k * factor));
        const f = k / v.k;
        return clampView({ k, x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f });
      }),
    [clampView],
  );
  const panBy = useCallback(
    (dx: number, dy: number) => setView((v) => clampView({ ...v, x: v.x + dx, y: v.y + dy })),
    [clampView],
  );
  // The zoom buttons and their keys (+ or =, -, 0) do the same: in or out about the centre, or back to the whole world.
  const zoomIn = () => zoomAt(1.5, width / 2, height / 2);
  const zoomOut = () => zoomAt(1 / 1.5, width / 2, height / 2);
  const wholeWorld = () => setView({ k: 1, x: 0, y: 0 });
  return { view, zoomAt, panBy, zoomIn, zoomOut, wholeWorld };
}

/** What a frame draws. */
interface Frame {
  width: number;
  height: number;
  view: View;
  shapes: { sphere: Path2D; land: Path2D; overlay: Path2D | null };
  projected: ReadonlyArray<readonly number[]>;
  colours: readonly string[];
}

/** Draws one frame: the countries and overlay under the view transform, then the assets. */
function drawFrame(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, frame: Frame): void {
  const { width, height, view, shapes, projected, colours } = frame;
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
  if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  // Countries and overlay in projected coordinates under the view transform.
  ctx.save();
  ctx.setTransform(ratio * view.k, 0, 0, ratio * view.k, ratio * view.x, ratio * view.y);
  ctx.fillStyle = "#EAF3FB";
  ctx.fill(shapes.sphere);
  ctx.fillStyle = "#FBFBF8";
  ctx.fill(shapes.land);
  ctx.lineWidth = 0.6 / view.k;
  ctx.strokeStyle = "#A19F9D";
  ctx.stroke(shapes.land);
  if (shapes.overlay) {
    ctx.fillStyle = "rgba(0, 120, 212, 0.18)";
    ctx.fill(shapes.overlay);
    ctx.lineWidth = 1.5 / view.k;
    ctx.strokeStyle = "#0078D4";
    ctx.stroke(shapes.overlay);
  }
  ctx.restore();
  // Assets: one path per colour, fixed screen size whatever the zoom; HIGH drawn last (on top).
  const half = MARKER / 2;
  for (const label of ["NONE", "LOW", "MEDIUM", "HIGH"]) {
    ctx.beginPath();
    for (let i = 0; i < projected.length; i++) {
      if (colours[i] !== label) continue;
      const sx = projected[i][0] * view.k + view.x;
      const sy = projected[i][1] * view.k + view.y;
      if (sx < -MARKER || sy < -MARKER || sx > width + MARKER || sy > height + MARKER) continue;
      ctx.rect(sx - half, sy - half, MARKER, MARKER);
    }
    ctx.fillStyle = MARKER_COLOURS[label];
    ctx.fill();
    ctx.lineWidth = 0.75;
    ctx.strokeStyle = "#FFFFFF";
    ctx.stroke();
  }
}

/** Wheel zoom about the pointer; it must be able to preventDefault (React's wheel listener is passive). */
function useWheelZoom(
  canvasRef: React.RefObject<HTMLCanvasElement | null>,
  zoomAt: (factor: number, cx: number, cy: number) => void,
): void {
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = canvas.getBoundingClientRect();
      zoomAt(Math.exp(-e.deltaY * 0.002), e.clientX - rect.left, e.clientY - rect.top);
    };
    canvas.addEventListener("wheel", onWheel, { passive: false });
    return () => canvas.removeEventListener("wheel", onWheel);
  }, [canvasRef, zoomAt]);
}

/** The canvas's pointer handlers: a drag pans, a move hovers, a click (no drag) selects. */
function useMapPointer(on: {
  panBy: (dx: number, dy: number) => void;
  hitTest: (x: number, y: number) => Hover | null;
  setHover: (hover: Hover | null) => void;
  onSelect?: (asset: MapAsset) => void;
}) {
  const { panBy, hitTest, setHover, onSelect } = on;
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const local = (e: React.PointerEvent) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  return {
    onPointerDown: (e: React.PointerEvent<HTMLCanvasElement>) => {
      e.currentTarget.setPointerCapture(e.pointerId);
      drag.current = { ...local(e), moved: false };
    },
    onPointerMove: (e: React.PointerEvent<HTMLCanvasElement>) => {
      const p = local(e);
      if (drag.current) {
        const dx = p.x - drag.current.x;
        const dy = p.y - drag.current.y;
        if (drag.current.moved || Math.abs(dx) + Math.abs(dy) > 3) {
          drag.current = { ...p, moved: true };
          panBy(dx, dy);
          setHover(null);
          return;
        }
      }
      setHover(hitTest(p.x, p.y));
    },
    onPointerUp: (e: React.PointerEvent<HTMLCanvasElement>) => {
      const wasDrag = drag.current?.moved;
      drag.current = null;
      if (wasDrag) return;
      const p = local(e);
      const hit = hitTest(p.x, p.y);
      if (hit) onSelect?.(hit.asset);
    },
    onPointerLeave: () => setHover(null),
  };
}

/** The zoom buttons over the map's corner. */
function ZoomButtons(props: { className: string; zoomIn: () => void; zoomOut: () => void; wholeWorld: () => void }) {
  const { t } = useI18n();
  const zoomButtons = [
    { label: t("visual.map.zoomIn"), testId: TEST_IDS.visual.mapZoomIn, text: "+", onClick: props.zoomIn },
    { label: t("visual.map.zoomOut"), testId: TEST_IDS.visual.mapZoomOut, text: "−", onClick: props.zoomOut },
    { label: t("visual.map.wholeWorld"), testId: TEST_IDS.visual.mapZoomReset, text: "⟲", onClick: props.wholeWorld },
  ];
  return (
    <div className={props.className}>
      {zoomButtons.map((b) => (
        <Tooltip key={b.testId} content={b.label} relationship="label">
          <Button size="small" style={ZOOM_BUTTON} data-testid={b.testId} onClick={b.onClick}>
            {b.text}
          </Button>
        </Tooltip>
      ))}
    </div>
  );
}

/** The hovered asset's name, id, label and score, beside it. */
function AssetTip(props: { className: string; hover: Hover; hazard: string; width: number }) {
  const { hover, hazard, width } = props;
  const { t, number } = useI18n();
  const label = assetLabelOf(hover.asset, hazard);
  const score = hover.asset.risks[hazard]?.score;
  return (
    <div
      className={props.className}
      data-testid={TEST_IDS.visual.mapTooltip}
      style={{ left: Math.min(hover.x + 10, width - 160), top: Math.max(0, hover.y - 64) }}
    >
      <strong>{hover.asset.entity_name || t("visual.map.tip.noName")}</strong>
      <div>entity_id: {hover.asset.entity_id}</div>
      <div>
        {hazard}: {label === "NONE" ? t("visual.map.tip.noLabel") : label}
        {score !== null && score !== undefined
          ? ` · ${t("visual.map.tip.score", { score: number(score, { minimumFractionDigits: 3, maximumFractionDigits: 3 }) })}`
          : ""}
      </div>
    </div>
  );
}
