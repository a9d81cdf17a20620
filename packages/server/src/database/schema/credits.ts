export interface CreditTables {
  credit_ledger: CreditLedgerTable;
  credit_allowances: CreditAllowanceTable;
}

export interface CreditLedgerTable {
  id: string;
  workspace_id: string;
  /** grant | reserve | release | charge */
  kind: string;
  amount: number;
  balance_after: number;
  crawl_id: string | null;
  note: string | null;
  created_at: string;
}

/** A calendar month's allowance given to a workspace (credits/monthly-allowance.ts). */
export interface CreditAllowanceTable {
  workspace_id: string;
  /** YYYY-MM, UTC. */
  period: string;
  granted: number;
  created_at: string;
}
