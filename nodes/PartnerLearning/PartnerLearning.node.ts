import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as category from './actions/category/Category.resource.ts';
import * as completion from './actions/completion/Completion.resource.ts';
import * as content from './actions/content/Content.resource.ts';
import * as course from './actions/course/Course.resource.ts';
import * as module from './actions/module/Module.resource.ts';
import * as organization from './actions/organization/Organization.resource.ts';
import * as progress from './actions/progress/Progress.resource.ts';
import { router } from './actions/router.ts';
import { simplifyField } from './actions/simplify.ts';
import * as transcript from './actions/transcript/Transcript.resource.ts';
import * as user from './actions/user/User.resource.ts';
import { searchCategories, searchCourses, searchModules, searchOrganizations } from './methods/listSearch.ts';

/** Partner Learning: learners, catalog, content links, completions, progress and transcripts (PDFs as files). */
export class PartnerLearning implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Partner Learning',
    name: 'partnerLearning',
    icon: { light: 'file:partnerLearning.svg', dark: 'file:partnerLearning.dark.svg' },
    group: ['transform'],
    version: 1,
    // Reads "Get Many: Course" rather than the raw values "getAll: course".
    subtitle:
      '={{ ({"complete":"Complete","deactivate":"Deactivate","delete":"Delete","downloadCertificate":"Download Certificate","downloadPdf":"Download PDF","get":"Get","getAll":"Get Many","reactivate":"Reactivate","refresh":"Refresh","register":"Register","update":"Update"})[$parameter["operation"]] || $parameter["operation"] }}: {{ ({"category":"Category","completion":"Completion","content":"Content","course":"Course","module":"Module","organization":"Organization","progress":"Progress","transcript":"Transcript","user":"User"})[$parameter["resource"]] || $parameter["resource"] }}',
    description: 'Register learners, read the course catalog, hand out content links, record completions and collect transcripts and certificates',
    defaults: { name: 'Partner Learning' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'partnerLearningApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Category', value: 'category' },
          { name: 'Completion', value: 'completion' },
          { name: 'Content', value: 'content' },
          { name: 'Course', value: 'course' },
          { name: 'Module', value: 'module' },
          { name: 'Organization', value: 'organization' },
          { name: 'Progress', value: 'progress' },
          { name: 'Transcript', value: 'transcript' },
          { name: 'User', value: 'user' },
        ],
        default: 'user',
      },
      ...category.description,
      ...completion.description,
      ...content.description,
      ...course.description,
      ...module.description,
      ...organization.description,
      ...progress.description,
      ...transcript.description,
      ...user.description,
      simplifyField,
    ],
  };

  methods = {
    listSearch: { searchCategories, searchCourses, searchModules, searchOrganizations },
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return router.call(this);
  }
}
