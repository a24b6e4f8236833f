package dev.modelarmor.screening;

/**
 * How many windows a text is cut into, for tests outside the screening package that need to know.
 */
public final class WindowCutterAccess {

	private WindowCutterAccess() {
	}

	/**
	 * The windows of a text.
	 * @param text the text
	 * @param windows the window settings
	 * @return how many windows it is screened in
	 */
	public static int windows(String text, WindowSettings windows) {
		return WindowCutter.split(text, windows).windows().size();
	}

}
