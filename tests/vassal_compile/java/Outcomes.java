/*
 * Drives the real VASSAL engine (the vassal-check tool's Vengine.jar) through the module's victory aids and
 * prints what the engine then holds as one JSON object on stdout (PlayAids.java's conventions).
 *
 *   turns   MODULE SETUP N          load a predefined set-up and step the turn tracker N times: the Turn level's value after each step
 *   losses  MODULE SETUP ELIMINATE RESTORE [COUNTER...]
 *                                   load a set-up; the module's global properties; eliminate (key ELIMINATE,
 *                                   "code,modifiers") the main-map units of the counters named (none named: one
 *                                   unit of each side), read them again; restore
 *                                   those units (key RESTORE), read them again; and the Victory window's labels
 *   deck    MODULE SETUP SIDE       load a set-up (its draw piles filled as the engine starts a new game); per
 *                                   draw pile: its pieces' CounterIds; join SIDE and draw a piece as a drag off
 *                                   the deck does; and its name as each side's player sees it
 */
import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameState;
import VASSAL.build.module.Map;
import VASSAL.build.module.PlayerRoster;
import VASSAL.build.module.map.DrawPile;
import VASSAL.build.module.properties.GlobalProperty;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.command.Command;
import VASSAL.counters.Decorator;
import VASSAL.counters.Deck;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.DataArchive;

import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import java.awt.Point;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;

public class Outcomes {
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
        PlayAids.gm = gm;   // its helpers (units, put) read the module from there
        switch (args[0]) {
        case "turns": turns(args[2], Integer.parseInt(args[3])); break;
        case "losses": losses(args[2], key(args[3]), key(args[4]), java.util.Arrays.copyOfRange(args, 5, args.length)); break;
        case "deck": deck(args[2], args[3]); break;
        default: problems.add("unknown command " + args[0]);
        }
      }
      catch (Throwable t) {
        t.printStackTrace();
        problems.add(t.toString());
      }
    });
    PlayAids.put("problems", problems);
    realOut.println(PlayAids.json.append("}"));
    realOut.flush();
    Runtime.getRuntime().halt(problems.isEmpty() ? 0 : 1);
  }

  // ------------------------------------------------------------ commands
  static void turns(String setup, int count) throws Exception {
    loadAsPlayer(gm.getDataArchive().getInputStream(setup));
    final TurnTracker tracker = gm.getAllDescendantComponentsOf(TurnTracker.class).get(0);
    final Method next = TurnTracker.class.getDeclaredMethod("next");
    next.setAccessible(true);
    final List<Object> seen = new ArrayList<>();
    seen.add(String.valueOf(gm.getProperty("Turn")));
    for (int i = 0; i < count; i++) {
      next.invoke(tracker);
      seen.add(String.valueOf(gm.getProperty("Turn")));
    }
    PlayAids.put("turns", seen);
  }

  static void losses(String setup, KeyStroke eliminate, KeyStroke restore, String[] ids) throws Exception {
    loadAsPlayer(gm.getDataArchive().getInputStream(setup));
    final List<GamePiece> units = new ArrayList<>();
    final HashSet<Object> sides = new HashSet<>();
    final List<String> wanted = java.util.Arrays.asList(ids);
    for (final GamePiece p : PlayAids.units()) {
      if (p.getProperty("Side") == null || p.getMap() == null || !"Map".equals(p.getMap().getMapName())) continue;
      if (wanted.isEmpty() ? sides.add(p.getProperty("Side")) : wanted.contains(String.valueOf(p.getProperty("CounterId")))) {
        sides.add(p.getProperty("Side"));
        units.add(Decorator.getOutermost(p));
      }
    }
    PlayAids.put("sides", new ArrayList<Object>(sides));
    PlayAids.put("before", globals());
    final LinkedHashMap<String, Object> where = new LinkedHashMap<>();
    for (final GamePiece p : units) {
      p.keyEvent(eliminate);
      where.put(String.valueOf(p.getProperty("CounterId")), p.getMap() == null ? null : p.getMap().getMapName());
    }
    PlayAids.put("eliminated_to", where);
    PlayAids.put("after_eliminate", globals());
    PlayAids.put("labels", labels());
    for (final GamePiece p : units) p.keyEvent(restore);
    PlayAids.put("after_restore", globals());
    PlayAids.put("labels_after_restore", labels());
  }

  static void deck(String setup, String side) throws Exception {
    loadAsPlayer(gm.getDataArchive().getInputStream(setup));
    final List<Object> decks = new ArrayList<>();
    for (final DrawPile pile : gm.getAllDescendantComponentsOf(DrawPile.class)) {
      final Deck deck = pile.getDeck();
      final LinkedHashMap<String, Object> d = new LinkedHashMap<>();
      d.put("name", pile.getConfigureName());
      d.put("map", deck == null || deck.getMap() == null ? null : deck.getMap().getMapName());
      d.put("face_down", deck == null ? null : deck.isFaceDown());
      final List<Object> names = new ArrayList<>();
      if (deck != null) for (final GamePiece p : deck.asList()) names.add(String.valueOf(p.getProperty("CounterId")));
      d.put("counters", names);
      if (deck != null && deck.getPieceCount() > 0) {
        gm.getPlayerRoster().add(GameModule.getUserId(), "tester", side);
        // what a drag off the deck does (PieceMover): the deck picks the piece (at random: shuffle Always), tells
        // the piece it left a face-down deck, and the map places it
        final GamePiece top = deck.drawCards().nextPiece();
        deck.pieceRemoved(top);
        deck.getMap().placeOrMerge(top, new Point(deck.getPosition().x + 300, deck.getPosition().y));
        d.put("drawn", String.valueOf(top.getProperty("CounterId")));
        final LinkedHashMap<String, Object> seen = new LinkedHashMap<>();
        for (final String s : gm.getPlayerRoster().getSides()) seen.put(s, seenBy(top, s));
        d.put("drawn_seen_by", seen);
        d.put("left_in_deck", deck.getPieceCount());
      }
      decks.add(d);
    }
    PlayAids.put("decks", decks);
  }

  // ------------------------------------------------------------ helpers
  /** A saved game loaded as PlayAids loads it, then each set-up stack and draw pile started as the end_save
   *  command's GameState.setup(true) starts them (that call as a whole opens the Player's wizard): a draw pile
   *  fills itself with its pieces in a game new to the engine, as a generated set-up is. */
  static void loadAsPlayer(InputStream in) throws Exception {
    PlayAids.load(in);
    for (final VASSAL.build.module.map.SetupStack s : gm.getAllDescendantComponentsOf(VASSAL.build.module.map.SetupStack.class)) {
      s.setup(true);
    }
  }

  /** Every global property of the module and its maps: name -> value. */
  static LinkedHashMap<String, Object> globals() {
    final LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (final GlobalProperty g : gm.getAllDescendantComponentsOf(GlobalProperty.class)) {
      out.put(g.getConfigureName(), String.valueOf(g.getPropertyValue()));
    }
    return out;
  }

  /** The name `p` shows the player of `side` (joined anew). */
  static String seenBy(GamePiece p, String side) {
    gm.getPlayerRoster().remove(GameModule.getUserId());
    gm.getPlayerRoster().add(GameModule.getUserId(), "tester", side);
    return p.getLocalizedName();
  }

  /** The pieces of the Victory window: CounterId -> their name as drawn (Text Labels evaluated). */
  static LinkedHashMap<String, Object> labels() {
    final LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (final GamePiece p : gm.getGameState().getAllPieces()) {
      if (p instanceof Stack || p.getMap() == null || !"Victory".equals(p.getMap().getMapName())) continue;
      final GamePiece o = Decorator.getOutermost(p);
      out.put(String.valueOf(o.getProperty("TrackId")), o.getLocalizedName());
    }
    return out;
  }

  static KeyStroke key(String text) {
    final String[] parts = text.split(",");
    return KeyStroke.getKeyStroke(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
  }
}
