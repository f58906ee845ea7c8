// State of the emulated notification service. JSON-serialisable (persisted by --sandbox).
export interface NotifyState {
  placeholder?: never;
}
