/**
 * The only module that imports ECharts (loaded lazily by Chart.tsx, so ECharts is a chunk of its own that
 * neither the login route nor the schema runtime carries): `echarts/core` with just what the charts use —
 * bar, line and pie, the grid, tooltip and legend (plain and scrolling) components, and the canvas
 * renderer — rendered through echarts-for-react's core component.
 */
import React from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface EChartsViewProps {
  option: echarts.EChartsCoreOption;
  style?: React.CSSProperties;
}

export default function EChartsView({ option, style }: EChartsViewProps) {
  return <ReactEChartsCore echarts={echarts} option={option} style={style} notMerge lazyUpdate />;
}
