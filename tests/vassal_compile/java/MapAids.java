/*
 * Drives the real VASSAL engine (the vassal-check tool's Vengine.jar) through the main map's range aids and
 * the turn tracker's briefings, and prints what the engine then holds as one JSON object on stdout.
 *
 *   los   MODULE SETUP FROM TO [FROM TO ...]
 *                         load a predefined set-up; per pair of hex labels, the LOS thread drawn from the
 *                         centre of FROM to the centre of TO (as a drag snapped to both centres leaves it):
 *                         the range the engine shows and reports ($Range$)
 *   reach MODULE SETUP COUNTER HEX KEY LABEL...
 *                         load a set-up, put the unit COUNTER (its CounterId) on HEX, press KEY
 *                         ("code,modifiers") on it: whether its area of effect is shown, and which of the
 *                         hexes LABEL... the area holds (their centres)
 *   turns MODULE SETUP N  load a set-up; the chat text it posts, then step the turn tracker N times: per step
 *                         the turn and phase entered, the chat lines posted, and the highlight each box of
 *                         the reinforcement window shows
 *
 * Only public engine API and, where the engine offers no public call (TurnTracker.next, the LOS thread's
 * end points, the chat's text), reflection.
 */
import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameState;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.LOS_Thread;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.command.Command;
import VASSAL.counters.AreaOfEffect;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;

import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import java.awt.Point;
import java.awt.geom.Area;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

public class MapAids {
  static GameModule gm;
  static final List<String> problems = new ArrayList<>();

  static final class Module extends GameModule {
    Module(DataArchive a) { super(a); }
    @Override public void warn(String s) { }
  }

  public static void main(String[] args) throws Exception {
    final PrintStream realOut = System.out;
    System.setOut(System.err);
    Info.setConfig(new StandardConfig());
    final java.lang.reflect.Constructor<?> mm =
      Class.forName("VASSAL.launch.Player$PlayerMenuManager").getDeclaredConstructor();
    mm.setAccessible(true);
    mm.newInstance();
    SwingUtilities.invokeAndWait(() -> {
      try {
        gm = new Module(new DataArchive(new File(args[1]).getAbsolutePath()));
        GameModule.init(gm);
        switch (args[0]) {
        case "los": los(args[2], java.util.Arrays.copyOfRange(args, 3, args.length)); break;
        case "reach": reach(args[2], args[3], args[4], key(args[5]), java.util.Arrays.copyOfRange(args, 6, args.length)); break;
        case "turns": turns(args[2], Integer.parseInt(args[3])); break;
        default: problems.add("unknown command " + args[0]);
        }
      }
      catch (Throwable t) {
        t.printStackTrace();
        problems.add(t.toString());
      }
    });
    put("problems", problems);
    realOut.println(PlayAids.json.append("}"));
    realOut.flush();
    Runtime.getRuntime().halt(problems.isEmpty() ? 0 : 1);
  }

  // ------------------------------------------------------------ commands
  static void los(String setup, String[] hexes) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final Map map = mainMap();
    final LOS_Thread thread = gm.getAllDescendantComponentsOf(LOS_Thread.class).get(0);
    final List<Object> out = new ArrayList<>();
    for (int i = 0; i + 1 < hexes.length; i += 2) {
      final Point from = hexPoint(map, hexes[i]);
      final Point to = hexPoint(map, hexes[i + 1]);
      set(thread, "anchor", new Point(from));
      set(thread, "arrow", new Point(to));
      set(thread, "visible", true);
      set(thread, "lastRange", "");
      final BufferedImage image = new BufferedImage(8, 8, BufferedImage.TYPE_INT_ARGB);
      final java.awt.Graphics2D g = image.createGraphics();
      thread.draw(g, map);   // what the map's view does while the thread is dragged: draws it and its range
      g.dispose();
      final LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      m.put("from", hexes[i]);
      m.put("to", hexes[i + 1]);
      m.put("range", String.valueOf(get(thread, "lastRange")));
      out.add(m);
    }
    put("los", out);
  }

  static void reach(String setup, String counter, String hex, KeyStroke key, String[] labels) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final Map map = mainMap();
    GamePiece unit = null;
    for (final GamePiece p : units()) {
      if (counter.equals(String.valueOf(p.getProperty("CounterId")))) unit = Decorator.getOutermost(p);
    }
    if (unit == null) throw new IllegalArgumentException("no unit " + counter);
    map.placeOrMerge(unit, hexPoint(map, hex));
    unit.keyEvent(key);
    final AreaOfEffect aoe = (AreaOfEffect) Decorator.getDecorator(unit, AreaOfEffect.class);
    put("has_area", aoe != null);
    if (aoe == null) return;
    final Method getArea = AreaOfEffect.class.getDeclaredMethod("getArea");
    getArea.setAccessible(true);
    final Area area = (Area) getArea.invoke(aoe);
    put("shown", area != null);
    final List<Object> inside = new ArrayList<>();
    if (area != null) {
      for (final String label : labels) {
        if (area.contains(hexPoint(map, label))) inside.add(label);
      }
    }
    put("inside", inside);
  }

  static void turns(String setup, int count) throws Exception {
    final javax.swing.text.Document chat = chatDocument();
    load(gm.getDataArchive().getInputStream(setup));
    put("setup_chat", chat.getText(0, chat.getLength()).trim());
    // starting the game sets up every game component (GameState.setup(true)): the zones then follow their
    // highlight properties
    for (final VASSAL.build.module.map.boardPicker.board.mapgrid.Zone z
        : gm.getAllDescendantComponentsOf(VASSAL.build.module.map.boardPicker.board.mapgrid.Zone.class)) {
      z.setup(true);
    }
    put("highlighted_at_start", highlighted());
    final TurnTracker tracker = gm.getAllDescendantComponentsOf(TurnTracker.class).get(0);
    gm.getPlayerWindow().setVisible(true);   // toolbar buttons take their hotkeys only while shown
    final Method next = TurnTracker.class.getDeclaredMethod("next");
    next.setAccessible(true);
    final List<Object> steps = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final int before = chat.getLength();
      next.invoke(tracker);
      final LinkedHashMap<String, Object> s = new LinkedHashMap<>();
      s.put("turn", String.valueOf(gm.getProperty("Turn")));
      s.put("phase", String.valueOf(gm.getProperty("Phase")));
      final List<Object> lines = new ArrayList<>();
      for (final String line : chat.getText(before, chat.getLength() - before).split("\n")) {
        if (!line.isBlank()) lines.add(line.trim());
      }
      s.put("chat", lines);
      s.put("highlighted", highlighted());
      steps.add(s);
    }
    put("steps", steps);
  }

  /** The zones of every map's boards that show a highlight now, by zone name. */
  static List<Object> highlighted() throws Exception {
    final List<Object> out = new ArrayList<>();
    for (final Map m : gm.getAllDescendantComponentsOf(Map.class)) {
      for (final VASSAL.build.module.map.boardPicker.Board b : m.getBoards()) {
        if (!(b.getGrid() instanceof VASSAL.build.module.map.boardPicker.board.ZonedGrid)) continue;
        final VASSAL.build.module.map.boardPicker.board.ZonedGrid grid =
          (VASSAL.build.module.map.boardPicker.board.ZonedGrid) b.getGrid();
        for (final java.util.Iterator<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone> it = grid.getZones(); it.hasNext(); ) {
          final VASSAL.build.module.map.boardPicker.board.mapgrid.Zone z = it.next();
          if (get(z, "highlighter") != null) out.add(z.getName());
        }
      }
    }
    return out;
  }

  // ------------------------------------------------------------ helpers
  static javax.swing.text.Document chatDocument() throws Exception {
    final VASSAL.build.module.Chatter chatter = gm.getChatter();
    return (javax.swing.text.Document) get(chatter, "doc");
  }

  static Field field(Class<?> c, String name) throws Exception {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      try {
        final Field f = k.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      }
      catch (NoSuchFieldException ignored) { }
    }
    throw new NoSuchFieldException(name);
  }

  static Object get(Object o, String name) throws Exception { return field(o.getClass(), name).get(o); }

  static void set(Object o, String name, Object value) throws Exception { field(o.getClass(), name).set(o, value); }

  static Map mainMap() {
    return gm.getAllDescendantComponentsOf(Map.class).stream().filter(m -> "Map".equals(m.getMapName())).findFirst().get();
  }

  static void load(InputStream in) throws Exception {
    final GameState gs = gm.getGameState();
    final Command c = gs.decodeSavedGame(in);
    gs.setup(false);
    for (final Command x : c.getSubCommands()) {
      if (x instanceof GameState.SetupCommand) continue;
      final String cn = x.getClass().getName();
      if (cn.endsWith("AlertCommand") || cn.endsWith("ConditionalCommand")) continue;
      x.execute();
    }
    for (final VASSAL.build.module.map.BoardPicker bp : gm.getAllDescendantComponentsOf(VASSAL.build.module.map.BoardPicker.class)) {
      bp.setup(true);
    }
  }

  /** The centre of the hex labelled `name` on the map's boards (the board whose grid names it so). */
  static Point hexPoint(Map map, String name) throws Exception {
    for (final VASSAL.build.module.map.boardPicker.Board b : map.getBoards()) {
      if (b.getGrid() == null) continue;
      try {
        final Point p = b.getGrid().getLocation(name);
        if (p == null || !name.equals(b.getGrid().locationName(p))) continue;
        final java.awt.Rectangle r = b.bounds();
        return new Point(p.x + r.x, p.y + r.y);
      }
      catch (VASSAL.build.module.map.boardPicker.board.MapGrid.BadCoords | RuntimeException ignored) { }
    }
    throw new IllegalArgumentException("no hex " + name);
  }

  static List<GamePiece> units() {
    final List<GamePiece> out = new ArrayList<>();
    for (final GamePiece p : gm.getGameState().getAllPieces()) {
      if (!(p instanceof Stack) && p.getProperty("CounterId") != null) out.add(p);
    }
    return out;
  }

  static KeyStroke key(String text) {
    return PlayAids.key(text);
  }

  static void put(String key, Object value) {   // the report, written as PlayAids writes its own
    PlayAids.put(key, value);
  }
}
