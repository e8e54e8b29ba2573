/*
 * Drives the real VASSAL engine (the vassal-check tool's Vengine.jar) through what a player does with a
 * module's play aids, and prints what the engine then holds as one JSON object on stdout.
 *
 *   phases  MODULE SETUP N          load a predefined set-up, move a unit of each side, step the turn tracker
 *                                   N times: each side's Moved flag and trail after each step
 *   save    MODULE SETUP OUT.vsav   load a set-up, move and flip some units, save the game the engine's way
 *   refresh MODULE SAVED.vsav       load a saved game, run the engine's Refresh Counters (GameRefresher)
 *   pieces  MODULE SAVED.vsav       load a saved game: its units as the engine holds them
 *   access  MODULE SETUP SIDE ELIMINATE CLEAR
 *                                   load a set-up, move a unit of each side, join SIDE and start the game; per
 *                                   side: whether the unit may be moved, where ELIMINATE (a key, "code,modifiers")
 *                                   sends it, and its Moved flag after the module hotkey CLEAR
 *   combat  MODULE SETUP ATTACKS MARK RESOLVE
 *                                   load a set-up and take every unit off the main map; then per line of the
 *                                   file ATTACKS ("DEFENDER@HEX =DEFENDER@HEX ATTACKER@HEX ...", a counter id
 *                                   then "~" for its second face): put those units there (the first a
 *                                   defender, those after "=" stacked with it, those after "+" marker
 *                                   counters from the palette, the rest attackers), mark the attackers with
 *                                   the key MARK, press RESOLVE on
 *                                   the defender, report the chat text, the roll, the defender's Combat*
 *                                   values and each unit's Attacker_Active, take them off again; a line
 *                                   "@turn LABEL" steps the turn tracker until its Turn level reads LABEL
 *   inventory MODULE SETUP          load a set-up, open the inventory window (its button's action) and read
 *                                   its tree: per leaf, the folder names from the root down, the leaf's
 *                                   text and its piece's CounterId
 *   eval    MODULE SETUP EXPR...    BeanShell expressions evaluated on a unit of the set-up (a debugging aid)
 *
 * Pieces are reported as {gpid, name, map, x, y, level (Step layer), type (the engine's type string)}.
 * Only public engine API and, where the engine offers no public call (TurnTracker.next), reflection.
 */
import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameRefresher;
import VASSAL.build.module.GameState;
import VASSAL.build.module.Map;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.command.Command;
import VASSAL.counters.Decorator;
import VASSAL.counters.Embellishment;
import VASSAL.counters.Footprint;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Properties;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;

import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import java.awt.Point;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;

public class PlayAids {
  static GameModule gm;
  static final StringBuilder json = new StringBuilder("{");
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
        case "phases": phases(args[2], Integer.parseInt(args[3])); break;
        case "save": save(args[2], args[3]); break;
        case "refresh": refresh(args[2]); break;
        case "pieces": load(new FileInputStream(args[2])); put("pieces", pieces()); break;
        case "access": access(args[2], args[3], key(args[4]), key(args[5])); break;
        case "combat": combat(args[2], args[3], key(args[4]), key(args[5])); break;
        case "inventory": inventory(args[2]); break;
        case "eval": eval(args[2], java.util.Arrays.copyOfRange(args, 3, args.length)); break;
        default: problems.add("unknown command " + args[0]);
        }
      }
      catch (Throwable t) {
        t.printStackTrace();
        problems.add(t.toString());
      }
    });
    put("problems", problems);
    realOut.println(json.append("}"));
    realOut.flush();
    Runtime.getRuntime().halt(problems.isEmpty() ? 0 : 1);
  }

  // ------------------------------------------------------------ commands
  static void phases(String setup, int count) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final TurnTracker tracker = gm.getAllDescendantComponentsOf(TurnTracker.class).get(0);
    gm.getPlayerWindow().setVisible(true);   // toolbar buttons take their hotkeys only while shown
    final List<GamePiece> movers = new ArrayList<>();
    final HashSet<Object> sides = new HashSet<>();
    for (final GamePiece p : units()) {
      if (p.getProperty("Side") != null && p.getMap() != null && "Map".equals(p.getMap().getMapName())
          && sides.add(p.getProperty("Side"))) movers.add(p);
    }
    for (final GamePiece p : movers) move(p);
    final List<Object> steps = new ArrayList<>();
    steps.add(step(tracker, movers));
    final Method next = TurnTracker.class.getDeclaredMethod("next");
    next.setAccessible(true);
    for (int i = 0; i < count; i++) {
      next.invoke(tracker);
      steps.add(step(tracker, movers));
    }
    put("steps", steps);
  }

  static void access(String setup, String side, KeyStroke eliminate, KeyStroke clear) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final List<GamePiece> movers = new ArrayList<>();
    final HashSet<Object> sides = new HashSet<>();
    for (final GamePiece p : units()) {
      if (p.getProperty("Side") != null && p.getMap() != null && "Map".equals(p.getMap().getMapName())
          && sides.add(p.getProperty("Side"))) movers.add(p);
    }
    for (final GamePiece p : movers) move(p);
    gm.getPlayerRoster().add(GameModule.getUserId(), "tester", side);
    final java.lang.reflect.Field started = GameState.class.getDeclaredField("gameStarted");
    started.setAccessible(true);
    started.setBoolean(gm.getGameState(), true);
    gm.getPlayerWindow().setVisible(true);   // toolbar buttons take their hotkeys only while shown
    put("my_side", VASSAL.build.module.PlayerRoster.getMySide());
    final LinkedHashMap<String, Object> restricted = new LinkedHashMap<>();
    final LinkedHashMap<String, Object> after = new LinkedHashMap<>();
    final LinkedHashMap<String, Object> moved = new LinkedHashMap<>();
    for (final GamePiece p : movers) {
      final GamePiece o = Decorator.getOutermost(p);
      restricted.put(String.valueOf(o.getProperty("Side")), String.valueOf(o.getProperty(Properties.RESTRICTED_MOVEMENT)));
    }
    gm.fireKeyStroke(VASSAL.tools.NamedKeyStroke.of(clear));
    for (final GamePiece p : movers) {
      final GamePiece o = Decorator.getOutermost(p);
      moved.put(String.valueOf(o.getProperty("Side")), String.valueOf(o.getProperty(Properties.MOVED)));
      o.keyEvent(eliminate);
      after.put(String.valueOf(o.getProperty("Side")), o.getMap() == null ? null : o.getMap().getMapName());
    }
    put("restricted_movement", restricted);
    put("moved_after_clear", moved);
    put("map_after_eliminate", after);
  }

  static void combat(String setup, String attacks, KeyStroke mark, KeyStroke resolve) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final Map map = gm.getAllDescendantComponentsOf(Map.class).stream().filter(m -> "Map".equals(m.getMapName())).findFirst().get();
    final java.util.Map<String, GamePiece> byId = new java.util.HashMap<>();
    for (final GamePiece p : units()) {
      byId.put(String.valueOf(p.getProperty("CounterId")), Decorator.getOutermost(p));
      if (p.getMap() != null) new VASSAL.command.RemovePiece(Decorator.getOutermost(p)).execute();
    }
    final List<Object> out = new ArrayList<>();
    final TurnTracker tracker = gm.getAllDescendantComponentsOf(TurnTracker.class).stream().findFirst().orElse(null);
    final Method next = TurnTracker.class.getDeclaredMethod("next");
    next.setAccessible(true);
    for (final String line : java.nio.file.Files.readAllLines(new File(attacks).toPath())) {
      if (line.isBlank()) continue;
      if (line.startsWith("@turn ")) {   // step the turn tracker until its Turn level reads the label
        final String label = line.substring(6).trim();
        for (int i = 0; i < 5000 && !label.equals(String.valueOf(gm.getProperty("Turn"))); i++) next.invoke(tracker);
        continue;
      }
      final List<GamePiece> placed = new ArrayList<>();
      final List<GamePiece> attackers = new ArrayList<>();
      final List<GamePiece> markers = new ArrayList<>();
      for (final String item : line.trim().split("\\s+")) {
        final boolean stacked = item.startsWith("=");   // another unit of the defender's stack
        final boolean marker = item.startsWith("+");    // a marker counter from the palette, put in the hex
        final String[] at = (stacked || marker ? item.substring(1) : item).split("@");
        final boolean flip = at[0].endsWith("~");
        final String id = flip ? at[0].substring(0, at[0].length() - 1) : at[0];
        final GamePiece p = marker || !byId.containsKey(id) ? fromPalette(id) : byId.get(id);   // a unit the set-up
                                                                                                  // lacks: the palette's
        final Embellishment e = stepLayer(p);
        if (e != null) e.mySetState(flip ? "2" : "1");
        map.placeOrMerge(p, hexPoint(map, at[1]));
        if (marker) { markers.add(p); continue; }
        if (!placed.isEmpty() && !stacked) attackers.add(p);
        placed.add(p);
      }
      for (final GamePiece p : attackers) p.keyEvent(mark);
      final Command c = placed.get(0).keyEvent(resolve);
      final LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      m.put("line", line.trim());
      m.put("report", chat(c));
      m.put("roll", String.valueOf(placed.get(0).getProperty("CombatRoll")));
      m.put("location", String.valueOf(placed.get(0).getProperty("LocationName")));
      final LinkedHashMap<String, Object> values = new LinkedHashMap<>();
      for (final String name : new String[] {"CombatAttackers", "CombatAttack", "CombatDefence", "CombatBase",
          "CombatShift", "CombatColumn", "CombatDRM", "CombatRow", "CombatNotes", "CombatUnknown", "CombatResult"}) {
        values.put(name, String.valueOf(placed.get(0).getProperty(name)));
      }
      m.put("values", values);
      final List<Object> marks = new ArrayList<>();
      for (final GamePiece p : placed) marks.add(String.valueOf(p.getProperty("Attacker_Active")));
      m.put("marked", marks);
      out.add(m);
      for (final GamePiece p : attackers) p.keyEvent(mark);
      for (final GamePiece p : placed) new VASSAL.command.RemovePiece(p).execute();
      for (final GamePiece p : markers) new VASSAL.command.RemovePiece(p).execute();
    }
    put("attacks", out);
  }

  /** A new piece of the palette's slot whose piece has the CounterId `id`. */
  static GamePiece fromPalette(String id) {
    for (final VASSAL.build.widget.PieceSlot slot : gm.getAllDescendantComponentsOf(VASSAL.build.widget.PieceSlot.class)) {
      if (id.equals(String.valueOf(slot.getPiece().getProperty("CounterId")))) {
        return VASSAL.counters.PieceCloner.getInstance().clonePiece(slot.getPiece());
      }
    }
    throw new IllegalArgumentException("no palette piece " + id);
  }

  static void inventory(String setup) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final List<Object> out = new ArrayList<>();
    for (final VASSAL.build.module.Inventory inv : gm.getAllDescendantComponentsOf(VASSAL.build.module.Inventory.class)) {
      final java.lang.reflect.Method launch = VASSAL.build.module.Inventory.class.getDeclaredMethod("launch");
      launch.setAccessible(true);   // what the toolbar button does: build the tree and show the window
      launch.invoke(inv);
      final java.lang.reflect.Field field = VASSAL.build.module.Inventory.class.getDeclaredField("tree");
      field.setAccessible(true);
      final javax.swing.tree.TreeModel model = ((javax.swing.JTree) field.get(inv)).getModel();
      leaves(model, model.getRoot(), new ArrayList<>(), out);
    }
    put("inventory", out);
  }

  /** Each leaf under `node`: {path (folder texts below the root), leaf (its text), counter (CounterId)}. */
  static void leaves(javax.swing.tree.TreeModel model, Object node, List<String> path, List<Object> out) {
    final int n = model.getChildCount(node);
    if (n == 0 && !path.isEmpty()) {
      final LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      m.put("path", new ArrayList<Object>(path.subList(0, path.size() - 1)));
      m.put("leaf", path.get(path.size() - 1));
      final VASSAL.build.module.Inventory.Counter c = ((VASSAL.build.module.Inventory.CounterNode) node).getCounter();
      m.put("counter", c == null || c.getPiece() == null ? null : String.valueOf(c.getPiece().getProperty("CounterId")));
      out.add(m);
      return;
    }
    for (int i = 0; i < n; i++) {
      final Object child = model.getChild(node, i);
      final List<String> below = new ArrayList<>(path);
      below.add(((VASSAL.build.module.Inventory.CounterNode) child).getEntry());
      leaves(model, child, below, out);
    }
  }

  static void eval(String setup, String[] expressions) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final GamePiece p = Decorator.getOutermost(units().get(0));
    final List<Object> out = new ArrayList<>();
    for (final String e : expressions) {
      try { out.add(VASSAL.script.expression.Expression.createExpression(e).evaluate(p)); }
      catch (Exception ex) { out.add("ERROR " + ex + " " + ex.getCause()); }
    }
    put("values", out);
  }

  /** The piece's strength faces (the Layer named Step; other layers, such as the attacker mark, are not). */
  static Embellishment stepLayer(GamePiece p) {
    for (GamePiece q = Decorator.getOutermost(p); q instanceof Decorator; q = ((Decorator) q).getInner()) {
      if (q instanceof Embellishment && "Step".equals(((Embellishment) q).getLayerName())) return (Embellishment) q;
    }
    return null;
  }

  /** The centre of the hex labelled `name` on the map's boards (the board whose grid names it so). */
  static Point hexPoint(Map map, String name) throws Exception {
    for (final VASSAL.build.module.map.boardPicker.Board b : map.getBoards()) {
      if (b.getGrid() == null) continue;
      try {
        final Point p = b.getGrid().getLocation(name);
        if (p == null || !name.equals(b.getGrid().locationName(p))) continue;  // a board's numbering may read
        final java.awt.Rectangle r = b.bounds();                                   // another board's label
        return new Point(p.x + r.x, p.y + r.y);
      }
      catch (VASSAL.build.module.map.boardPicker.board.MapGrid.BadCoords | RuntimeException ignored) { }
    }
    throw new IllegalArgumentException("no hex " + name);
  }

  /** The chat text a command shows (a Report trait's DisplayText, anywhere in the command's tree). */
  static String chat(Command c) {
    if (c == null) return null;
    if (c instanceof VASSAL.build.module.Chatter.DisplayText) return ((VASSAL.build.module.Chatter.DisplayText) c).getMessage();
    for (final Command sub : c.getSubCommands()) {
      final String s = chat(sub);
      if (s != null) return s;
    }
    return null;
  }

  static KeyStroke key(String text) {
    final String[] parts = text.split(",");
    return KeyStroke.getKeyStroke(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
  }

  static void save(String setup, String out) throws Exception {
    load(gm.getDataArchive().getInputStream(setup));
    final List<GamePiece> units = units();
    units.sort(Comparator.comparing(p -> String.valueOf(p.getProperty("CounterId"))));
    int moved = 0, flipped = 0;
    for (int i = 0; i < units.size(); i += 3) {
      final GamePiece p = units.get(i);
      if (p.getMap() == null) continue;
      move(p);
      moved++;
      if (stepLayer(p) != null) {
        p.keyEvent(KeyStroke.getKeyStroke('F', 0));
        flipped++;
      }
    }
    put("moved", moved);
    put("flipped", flipped);
    put("pieces", pieces());
    // what GameState.saveGame writes (that call waits on a save dialog's thread): the restore command,
    // encoded and obfuscated, as the zip entry savedGame
    final java.lang.reflect.Field action = GameState.class.getDeclaredField("saveGame");
    action.setAccessible(true);   // the restore command is made only while saving is enabled (a started game)
    ((javax.swing.Action) action.get(gm.getGameState())).setEnabled(true);
    final String text = gm.encode(gm.getGameState().getRestoreCommand());
    try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(new java.io.FileOutputStream(out))) {
      zip.putNextEntry(new java.util.zip.ZipEntry(GameState.SAVEFILE_ZIP_ENTRY));
      final VASSAL.tools.io.ObfuscatingOutputStream obf = new VASSAL.tools.io.ObfuscatingOutputStream(zip);
      obf.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      obf.flush();
      zip.closeEntry();
    }
  }

  static void refresh(String saved) throws Exception {
    load(new FileInputStream(saved));
    final GameRefresher refresher = new GameRefresher(gm);
    refresher.execute(new HashSet<>(), null);
    put("pieces", pieces());
  }

  // ------------------------------------------------------------ helpers
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

  /** A player's drag: the piece is marked moved where it starts and where it lands (the trail's first and
   *  last points), 40 px to the right, as the PieceMover does. */
  static void move(GamePiece p) {
    final GamePiece o = Decorator.getOutermost(p);
    o.setProperty(Properties.MOVED, Boolean.TRUE);
    p.getMap().placeOrMerge(o, new Point(p.getPosition().x + 40, p.getPosition().y));
    o.setProperty(Properties.MOVED, Boolean.TRUE);
  }

  static Object step(TurnTracker tracker, List<GamePiece> movers) {
    final LinkedHashMap<String, Object> s = new LinkedHashMap<>();
    s.put("phase", String.valueOf(gm.getProperty("Phase")));
    final LinkedHashMap<String, Object> moved = new LinkedHashMap<>();
    final LinkedHashMap<String, Object> trail = new LinkedHashMap<>();
    for (final GamePiece p : movers) {
      final String side = String.valueOf(p.getProperty("Side"));
      moved.put(side, String.valueOf(p.getProperty(Properties.MOVED)));
      final Footprint f = (Footprint) Decorator.getDecorator(Decorator.getOutermost(p), Footprint.class);
      trail.put(side, f == null ? "none" : f.myGetState());
    }
    s.put("moved", moved);
    s.put("trail", trail);
    return s;
  }

  /** Every piece of a counter the game holds, once (the game state lists stacks and their members). */
  static List<GamePiece> units() {
    final List<GamePiece> out = new ArrayList<>();
    for (final GamePiece p : gm.getGameState().getAllPieces()) {
      if (!(p instanceof Stack) && p.getProperty("CounterId") != null) out.add(p);
    }
    return out;
  }

  static List<Object> pieces() {
    final List<Object> out = new ArrayList<>();
    for (final GamePiece p : units()) {
      if (p.getMap() == null) continue;   // a refresh leaves the replaced pieces registered, on no map
      final LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      final GamePiece o = Decorator.getOutermost(p);
      m.put("gpid", String.valueOf(o.getProperty(Properties.PIECE_ID)));
      m.put("counter", String.valueOf(o.getProperty("CounterId")));
      m.put("name", o.getName());
      m.put("map", o.getMap() == null ? null : o.getMap().getMapName());
      m.put("x", o.getPosition().x);
      m.put("y", o.getPosition().y);
      final Embellishment e = stepLayer(o);
      m.put("level", e == null ? 0 : Integer.parseInt(e.myGetState()));
      m.put("type", o.getType());
      out.add(m);
    }
    return out;
  }

  static void put(String key, Object value) {
    if (json.length() > 1) json.append(',');
    str(key);
    json.append(':');
    write(value);
  }

  static void write(Object o) {
    if (o == null) json.append("null");
    else if (o instanceof Number || o instanceof Boolean) json.append(o);
    else if (o instanceof java.util.Map) {
      json.append('{');
      boolean first = true;
      for (final java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) o).entrySet()) {
        if (!first) json.append(',');
        first = false;
        str(String.valueOf(e.getKey()));
        json.append(':');
        write(e.getValue());
      }
      json.append('}');
    }
    else if (o instanceof List) {
      json.append('[');
      boolean first = true;
      for (final Object x : (List<?>) o) {
        if (!first) json.append(',');
        first = false;
        write(x);
      }
      json.append(']');
    }
    else str(String.valueOf(o));
  }

  static void str(String s) {
    json.append('"');
    for (final char c : s.toCharArray()) {
      if (c == '"' || c == '\\') json.append('\\').append(c);
      else if (c < 0x20) json.append(String.format("\\u%04x", (int) c));
      else json.append(c);
    }
    json.append('"');
  }
}
